package dev.redrive.core.breaker;

import java.time.Duration;

/** What a sandbox's breakers report, for metrics: transitions it wrote, calls refused, probe results, store failures. */
public interface BreakerListener {

    BreakerListener NONE = new BreakerListener() {};

    /** This sandbox wrote a transition of {@code dependency}'s breaker (the entry its history keeps). */
    default void transitioned(String dependency, BreakerTransition transition) {}

    /** A call to {@code dependency} was refused without calling it (the message is deferred). */
    default void refused(String dependency) {}

    /**
     * A call to {@code dependency} was refused, its breaker open (or half-open) for {@code openFor} since it first
     * opened in this outage (zero when unknown). By default {@link #refused(String)}.
     */
    default void refused(String dependency, Duration openFor) {
        refused(dependency);
    }

    /** This sandbox's probe of {@code dependency} ended. */
    default void probed(String dependency, boolean succeeded) {}

    /** The breaker's own store failed: the breaker let the call through (fails open). */
    default void storeFailed(String dependency, RuntimeException failure) {}
}
