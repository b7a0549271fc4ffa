package dev.redrive.core.operator;

import dev.redrive.core.quarantine.QuarantineState;
import java.util.Optional;

/**
 * Follows a run over several dead letters, done one at a time: told each outcome as it happens (for progress), and
 * asked before each dead letter whether to stop there (Ctrl-C, a closing window).
 *
 * @param <O> the outcome type of one dead letter
 */
public interface RunListener<O> {

    /** Asked before each dead letter; true stops the run there, before it. */
    default boolean stopRequested() {
        return false;
    }

    /**
     * One dead letter done.
     *
     * @param stateBefore its state before this run touched it; empty when there was no such dead letter
     */
    void done(String quarantineId, Optional<QuarantineState> stateBefore, O outcome);

    /** A listener that only collects nothing and never stops. */
    static <O> RunListener<O> none() {
        return (id, before, outcome) -> {};
    }
}
