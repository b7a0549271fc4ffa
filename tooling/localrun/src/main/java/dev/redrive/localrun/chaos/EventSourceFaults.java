package dev.redrive.localrun.chaos;

import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Hook;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Verdict;

/**
 * The faults SQS answers the event-source mapping with, on the proxy between the mapping's pollers and SQS: a
 * {@code ReceiveMessage} or {@code DeleteMessageBatch} answered 500 InternalError instead of being served. The
 * mapping's client does not retry (its retry is the next poll, and a batch whose delete failed comes back after its
 * visibility timeout, its receive count one higher), so every injected 500 reaches the mapping's code. Counted under
 * the step {@code event-source:<operation>}.
 */
final class EventSourceFaults implements Hook {

    private final String function;
    private final FaultInjector faults;

    EventSourceFaults(String function, FaultInjector faults) {
        this.function = function;
        this.faults = faults;
    }

    @Override
    public Verdict before(Call call) {
        String operation = call.operation();
        if (!"ReceiveMessage".equals(operation) && !"DeleteMessageBatch".equals(operation)) {
            return Verdict.pass();
        }
        return faults.draw("event-source:" + operation, function).strikes(FaultKind.SQS_INTERNAL_ERROR)
                ? AwsFaults.sqsInternalError()
                : Verdict.pass();
    }
}
