package dev.redrive.core.consumer;

import dev.redrive.core.failure.ClassifiedException;
import dev.redrive.core.failure.FailureClass;
import java.time.Instant;

/**
 * An effect would have started, or gone on, after its deadline: the end of its claim's lease minus a margin, after
 * which another worker may take the claim over and apply the effect itself. Nothing was applied by this call.
 * TRANSIENT: the next delivery claims again (or finds the other worker's result).
 */
public final class EffectDeadlinePassed extends ClassifiedException {

    public EffectDeadlinePassed(String what, Instant deadline, String dependency) {
        super(
                what + " not started: the effect's deadline " + deadline + " has passed (its lease may be another "
                        + "worker's by now)",
                dependency,
                null);
    }

    /** For a deadline kept as a monotonic time, with no instant to name. */
    public EffectDeadlinePassed(String what, String dependency) {
        super(
                what + " not started: the effect's deadline has passed (its lease may be another worker's by now)",
                dependency,
                null);
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.TRANSIENT;
    }
}
