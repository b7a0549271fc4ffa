package dev.redrive.core.backoff;

import java.security.SecureRandom;

/** The default source: unpredictable, thread-safe. */
public final class SecureRandomSource implements RandomSource {
    private final SecureRandom random = new SecureRandom();

    @Override
    public double nextDouble() {
        return random.nextDouble();
    }
}
