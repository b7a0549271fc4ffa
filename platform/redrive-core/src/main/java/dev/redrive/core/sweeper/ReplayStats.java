package dev.redrive.core.sweeper;

import dev.redrive.core.failure.FailureClass;
import java.util.Map;

/**
 * Running totals of replays sent and replays that came back to the dead-letter queue, by failure class: the replay
 * success rate is {@code (sent - returned) / sent}.
 */
public interface ReplayStats {

    void add(FailureClass failureClass, long sent, long returned);

    Map<FailureClass, Totals> totals();

    /** Sent and returned replays of one class. */
    record Totals(long sent, long returned) {
        public double successRate() {
            return sent == 0 ? 1.0 : Math.max(0.0, (double) (sent - returned) / sent);
        }
    }
}
