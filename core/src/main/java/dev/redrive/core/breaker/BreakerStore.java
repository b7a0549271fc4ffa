package dev.redrive.core.breaker;

/**
 * Where the breakers of the dependencies are shared by every sandbox of every consumer (on AWS: one item per
 * dependency in the control table). Written only on transitions, each conditional on the token it was decided from.
 */
public interface BreakerStore {

    /** The breaker of {@code dependency}; {@link BreakerState#closed()} when it was never written. */
    BreakerState read(String dependency);

    /**
     * Writes {@code next} if the stored breaker still has {@code expectedToken} (0: never written).
     *
     * @return false when another sandbox wrote a transition first: nothing was changed
     */
    boolean transition(String dependency, long expectedToken, BreakerState next);
}
