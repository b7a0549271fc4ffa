package dev.redrive.core.breaker;

import java.time.Duration;
import java.util.Objects;

/**
 * When a dependency's circuit breaker opens, and for how long.
 *
 * @param consecutiveFailures TRANSIENT failures in a row, in one sandbox, that open it
 * @param failureRate         the share of TRANSIENT failures over a full window that opens it (strictly over; 1.0
 *                            turns the rate trigger off)
 * @param window              how many recent calls of one sandbox the rate is measured over
 * @param openPeriod          how long it stays open after it first opens
 * @param maxOpenPeriod       the cap of the period, which doubles on every failed probe
 * @param probeLease          how long one probe holds the half-open breaker before another may take over
 */
public record BreakerPolicy(
        int consecutiveFailures,
        double failureRate,
        int window,
        Duration openPeriod,
        Duration maxOpenPeriod,
        Duration probeLease) {

    /** Five failures in a row or over half of the last 20 calls; open 30 s, doubling up to 10 min; probes of 30 s. */
    public static final BreakerPolicy DEFAULT =
            new BreakerPolicy(5, 0.5, 20, Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofSeconds(30));

    public BreakerPolicy {
        Objects.requireNonNull(openPeriod, "openPeriod");
        Objects.requireNonNull(maxOpenPeriod, "maxOpenPeriod");
        Objects.requireNonNull(probeLease, "probeLease");
        if (consecutiveFailures < 1 || window < 1) {
            throw new IllegalArgumentException(
                    "a breaker opens after at least one failure, over a window of at least one call: "
                            + consecutiveFailures + ", " + window);
        }
        if (!(failureRate > 0.0 && failureRate <= 1.0)) {
            throw new IllegalArgumentException("the failure rate is a share in (0, 1]: " + failureRate);
        }
        if (!isPositive(openPeriod) || maxOpenPeriod.compareTo(openPeriod) < 0) {
            throw new IllegalArgumentException(
                    "the open period must be positive and at most its cap: " + openPeriod + ", cap " + maxOpenPeriod);
        }
        if (!isPositive(probeLease)) {
            throw new IllegalArgumentException("the probe lease must be positive: " + probeLease);
        }
    }

    private static boolean isPositive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }
}
