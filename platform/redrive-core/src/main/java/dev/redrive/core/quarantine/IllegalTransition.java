package dev.redrive.core.quarantine;

/** A transition the state machine does not allow. */
public final class IllegalTransition extends IllegalStateException {
    public IllegalTransition(String quarantineId, QuarantineState from, QuarantineState to) {
        super("dead letter " + quarantineId + " cannot go from " + from + " to " + to + " (allowed: " + from.next()
                + ")");
    }
}
