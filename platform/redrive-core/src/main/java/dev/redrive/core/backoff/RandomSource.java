package dev.redrive.core.backoff;

/** Uniform random numbers in [0, 1). Injected wherever randomness is needed, so runs and tests can be reproduced. */
@FunctionalInterface
public interface RandomSource {
    double nextDouble();
}
