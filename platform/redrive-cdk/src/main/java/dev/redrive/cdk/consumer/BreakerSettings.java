package dev.redrive.cdk.consumer;

import dev.redrive.cdk.function.IsoDurations;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The consumers' circuit breakers' periods (CDK context {@code breakerOpenPeriod}, {@code breakerMaxOpenPeriod},
 * {@code breakerProbeLease}), written to each guarded function's environment as {@code
 * REDRIVE_BREAKERS_<DEPENDENCY>_OPEN_PERIOD}, {@code _MAX_OPEN_PERIOD} and {@code _PROBE_LEASE} whether or not the
 * context sets them: the template then says what the functions run with, and whatever reads it (the local run's waits)
 * keeps no copy of the functions' defaults. A demo stack shortens them so an outage plays out in minutes.
 *
 * @param openPeriod    how long a breaker stays open after it opens
 * @param maxOpenPeriod the cap of the period, which doubles on every failed probe
 * @param probeLease    how long the one probe holds the half-open breaker before another sandbox may probe
 * @param enabled       whether the breakers guard their dependencies at all (CDK context {@code breakerEnabled},
 *                      true by default; {@code false} is for measuring what the breaker saves, written as {@code
 *                      _ENABLED})
 */
public record BreakerSettings(Duration openPeriod, Duration maxOpenPeriod, Duration probeLease, boolean enabled) {

    /** The defaults the functions use too ({@code redrive.breakers.<dependency>.*}): 30 s, up to 10 min; 30 s. */
    public static final BreakerSettings DEFAULT =
            new BreakerSettings(Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofSeconds(30), true);

    /** Refuses a period that is not positive, or a cap below the period (the function would refuse to start). */
    public BreakerSettings {
        requirePositive("breakerOpenPeriod", openPeriod);
        requirePositive("breakerMaxOpenPeriod", maxOpenPeriod);
        requirePositive("breakerProbeLease", probeLease);
        if (maxOpenPeriod.compareTo(openPeriod) < 0) {
            throw new IllegalArgumentException("breakerMaxOpenPeriod " + maxOpenPeriod + " is below the open period "
                    + openPeriod + ": set -c breakerMaxOpenPeriod at least -c breakerOpenPeriod");
        }
    }

    /** The environment variables of {@code dependency}'s breaker ({@code mail-provider}). */
    public Map<String, String> environment(String dependency) {
        String prefix = "REDRIVE_BREAKERS_"
                + dependency.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "_";
        Map<String, String> env = new TreeMap<>();
        env.put(prefix + "OPEN_PERIOD", IsoDurations.format(openPeriod));
        env.put(prefix + "MAX_OPEN_PERIOD", IsoDurations.format(maxOpenPeriod));
        env.put(prefix + "PROBE_LEASE", IsoDurations.format(probeLease));
        env.put(prefix + "ENABLED", Boolean.toString(enabled));
        return env;
    }

    private static void requirePositive(String key, Duration d) {
        Objects.requireNonNull(d, key);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be positive, was " + d);
        }
    }
}
