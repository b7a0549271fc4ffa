package dev.redrive.core.breaker;

import java.util.Objects;

/**
 * One transition of a breaker, to be written with something else in one atomic write (a maintenance window's change):
 * {@code next} and its history {@code entry}, if the stored breaker still has {@code expectedToken}.
 */
public record BreakerWrite(String dependency, long expectedToken, BreakerState next, BreakerTransition entry) {

    public BreakerWrite {
        Objects.requireNonNull(dependency, "dependency");
        Objects.requireNonNull(next, "next");
        Objects.requireNonNull(entry, "entry");
        entry.requireDescribes(expectedToken, next);
    }
}
