package dev.redrive.localrun.chaos;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * One AWS call, classified.
 *
 * @param service      dynamodb, sqs or s3
 * @param operation    PutItem, SendMessageBatch, S3:PUT ...
 * @param roles        what it does for the function (a revenue transaction is claim, effect and completion at once)
 * @param key          the idempotency key it is about, if any
 * @param fencingToken the fencing token it carries, or -1
 * @param leaseEnd     the lease end it writes (epoch millis), or -1
 * @param items        the items of a transaction (1 for other calls)
 * @param write        whether it changes anything
 * @param target       the queue URL, table or bucket it addresses ("" when unknown)
 */
public record AwsCall(
        String service,
        String operation,
        Set<CallRole> roles,
        String key,
        long fencingToken,
        long leaseEnd,
        int items,
        boolean write,
        String target) {

    public AwsCall {
        roles = Set.copyOf(roles);
    }

    public boolean is(CallRole role) {
        return roles.contains(role);
    }

    /** The step name faults at this call are counted under: its roles, e.g. {@code claim-write+effect-call}. */
    public String step() {
        return roles.stream().sorted().map(CallRole::id).collect(Collectors.joining("+"));
    }
}
