package dev.redrive.core.breaker;

import java.util.List;

/**
 * Where the breakers of the dependencies are shared by every sandbox of every consumer (on AWS: one item per
 * dependency in the control table). Written only on transitions, each conditional on the token it was decided from;
 * the same write keeps the transition in the breaker's history (the last {@link BreakerTransition#KEPT}).
 */
public interface BreakerStore {

    /** The breaker of {@code dependency}; {@link BreakerState#closed()} when it was never written. */
    BreakerState read(String dependency);

    /**
     * Writes {@code next}, and {@code entry} into its history, if the stored breaker still has {@code expectedToken}
     * (0: never written). Both or neither are written.
     *
     * @return false when another sandbox wrote a transition first: nothing was changed
     * @throws IllegalArgumentException when {@code entry} does not describe {@code next}
     */
    boolean transition(String dependency, long expectedToken, BreakerState next, BreakerTransition entry);

    /**
     * The last {@link BreakerTransition#KEPT} transitions of {@code dependency}'s breaker, newest first; empty when it
     * was never written.
     */
    List<BreakerTransition> history(String dependency);
}
