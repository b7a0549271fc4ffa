package dev.redrive.cdk.consumer;

import java.time.Duration;
import java.util.Objects;

/**
 * Capped exponential backoff with full jitter for TRANSIENT failures, passed to a consumer as
 * {@code REDRIVE_BACKOFF_BASE}, {@code REDRIVE_BACKOFF_MULTIPLIER} and {@code REDRIVE_BACKOFF_MAX_DELAY}: the cap of
 * attempt n is {@code min(maxDelay, base * multiplier^(n-1))}.
 *
 * @param base       the cap of the first retry's delay
 * @param multiplier how much the cap grows per attempt (at least 1)
 * @param maxDelay   the largest delay (at most 12 h, the SQS visibility limit)
 */
public record BackoffSettings(Duration base, double multiplier, Duration maxDelay) {

    /** The defaults the functions use too: 2 s, doubling, at most 15 min. */
    public static final BackoffSettings DEFAULT =
            new BackoffSettings(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(15));

    /** Checks the values make a backoff SQS can carry out. */
    public BackoffSettings {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(maxDelay, "maxDelay");
        if (base.isNegative() || base.isZero()) {
            throw new IllegalArgumentException("backoff base must be positive, was " + base);
        }
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("backoff multiplier must be at least 1, was " + multiplier);
        }
        if (maxDelay.compareTo(base) < 0 || maxDelay.compareTo(Duration.ofHours(12)) > 0) {
            throw new IllegalArgumentException("backoff max delay must be between the base (" + base
                    + ") and 12 h (the SQS visibility limit), was " + maxDelay);
        }
    }

    /** The multiplier as the functions parse it ({@code 2.0}). */
    public String multiplierText() {
        return Double.toString(multiplier);
    }
}
