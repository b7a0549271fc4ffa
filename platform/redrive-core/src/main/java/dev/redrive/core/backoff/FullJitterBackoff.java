package dev.redrive.core.backoff;

import java.time.Duration;
import java.util.Objects;

/**
 * Capped exponential backoff with full jitter, in whole seconds (the unit of an SQS visibility timeout):
 * <pre>
 *   capped = min(maxDelay, base * multiplier^(attempt-1))
 *   delay  = round(capped * rng())      rng uniform in [0, 1)
 * </pre>
 * Full jitter spreads retries of a failed batch over the whole window instead of stampeding together.
 *
 * @param base       the cap of the first retry
 * @param multiplier growth per attempt, at least 1
 * @param maxDelay   the cap never exceeded; at most 12 hours (the SQS visibility limit)
 */
public record FullJitterBackoff(Duration base, double multiplier, Duration maxDelay) {

    /** The longest visibility timeout SQS accepts. */
    public static final Duration SQS_MAX_VISIBILITY = Duration.ofHours(12);

    public FullJitterBackoff {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(maxDelay, "maxDelay");
        if (base.isNegative() || base.isZero()) {
            throw new IllegalArgumentException("base must be positive: " + base);
        }
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("multiplier must be a finite number >= 1: " + multiplier);
        }
        if (maxDelay.compareTo(base) < 0 || maxDelay.compareTo(SQS_MAX_VISIBILITY) > 0) {
            throw new IllegalArgumentException(
                    "maxDelay must be between base and 12h (the SQS visibility limit): " + maxDelay);
        }
    }

    /** The cap for {@code attempt} (1 = the first retry), in seconds, before jitter. */
    public double cappedSeconds(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempts start at 1: " + attempt);
        }
        double exponential = base.toMillis() / 1000.0 * Math.pow(multiplier, attempt - 1);
        return Math.min(maxDelay.toMillis() / 1000.0, exponential);
    }

    /** The jittered delay for {@code attempt}, in whole seconds, drawing one number from {@code rng}. */
    public int delaySeconds(int attempt, RandomSource rng) {
        double r = rng.nextDouble();
        if (!(r >= 0.0 && r < 1.0)) {
            throw new IllegalStateException("random source returned " + r + ", outside [0, 1)");
        }
        return (int) Math.round(cappedSeconds(attempt) * r);
    }

    /** The mean delay for {@code attempt}: half the cap (before rounding). */
    public double expectedSeconds(int attempt) {
        return cappedSeconds(attempt) / 2.0;
    }
}
