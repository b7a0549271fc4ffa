package dev.redrive.localrun.chaos;

import java.util.Arrays;
import java.util.Optional;

/**
 * The named moments of a consumer's work at which its sandbox can be killed. The local Runtime API sees the first and
 * the last two; the sandbox's counting proxies see the AWS calls in between; the event-source poller sees the delete.
 */
public enum Step implements KillPoint {
    /** The sandbox has taken the event from its Runtime API, before anything else. */
    TAKES_EVENT("takes-event", "takes an event"),
    /** Its claim write reached DynamoDB (and was applied); the sandbox dies before it reads the answer. */
    CLAIM_WRITE("claim-write", "sends its claim write"),
    /** It sends its effect call (the email's S3 PUT, the revenue transaction); the call never arrives. */
    EFFECT_CALL("effect-call", "sends its effect call"),
    /** The effect was applied and its answer returned; the sandbox dies before it sends the completion. */
    EFFECT_RESPONSE("effect-response", "has its effect's response, not sent the completion"),
    /** The completion was written; the sandbox dies before it returns the batch response. */
    COMPLETED("completed", "has completed, not returned the batch response"),
    /**
     * The sandbox returned its batch response; the event-source mapping's worker dies before its DeleteMessageBatch,
     * so the batch comes back after its visibility timeout (nothing to kill in the sandbox: it is done).
     */
    RETURNED("returned", "has returned, before the poller's DeleteMessageBatch");

    private final String id;
    private final String description;

    Step(String id, String description) {
        this.id = id;
        this.description = description;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        return description;
    }

    public static Optional<Step> byId(String id) {
        return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst();
    }
}
