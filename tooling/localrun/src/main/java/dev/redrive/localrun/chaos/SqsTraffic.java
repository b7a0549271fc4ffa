package dev.redrive.localrun.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Reply;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads the messages out of the functions' SQS calls (JSON protocol) for the {@link MessageTracker}. */
final class SqsTraffic {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SqsTraffic() {}

    static void track(MessageTracker messages, AwsCall call, Call wire, Reply reply) {
        long now = System.currentTimeMillis();
        try {
            if (call.is(CallRole.DEAD_LETTER_SEND) || call.is(CallRole.REPLAY_SEND)) {
                JsonNode answer = JSON.readTree(reply.body());
                if (answer.has("MessageId")) {
                    messages.sent(call.target(), answer.get("MessageId").asText(), now);
                }
                for (JsonNode ok : answer.path("Successful")) {
                    messages.sent(call.target(), ok.path("MessageId").asText(), now);
                }
            } else if (call.is(CallRole.DLQ_RECEIVE)) {
                for (JsonNode m : JSON.readTree(reply.body()).path("Messages")) {
                    messages.inDeadLetterQueue(
                            call.target(),
                            m.path("MessageId").asText(),
                            m.path("ReceiptHandle").asText(null),
                            now);
                }
            } else if (call.is(CallRole.DLQ_DELETE)) {
                JsonNode request = JSON.readTree(wire.body());
                List<String> handles = new ArrayList<>();
                if (request.has("ReceiptHandle")) {
                    handles.add(request.get("ReceiptHandle").asText());
                }
                for (JsonNode e : request.path("Entries")) {
                    handles.add(e.path("ReceiptHandle").asText());
                }
                messages.deletedFromDeadLetterQueue(call.target(), handles);
            }
        } catch (IOException | RuntimeException e) {
            // not a body we can read: the tracker misses this one, nothing else depends on it
        }
    }
}
