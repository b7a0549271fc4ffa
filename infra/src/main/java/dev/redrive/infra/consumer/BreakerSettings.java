package dev.redrive.infra.consumer;

import dev.redrive.infra.function.IsoDurations;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The open periods of the consumers' circuit breakers, when the stack sets them (CDK context
 * {@code breakerOpenPeriod}, {@code breakerMaxOpenPeriod}); absent, the functions' defaults hold (30 s, doubling up
 * to 10 min: {@code redrive.breakers.<dependency>.*}). A demo stack shortens them so an outage plays out in minutes.
 *
 * @param openPeriod    how long a breaker stays open after it opens
 * @param maxOpenPeriod the cap of the period, which doubles on every failed probe
 */
public record BreakerSettings(Optional<Duration> openPeriod, Optional<Duration> maxOpenPeriod) {

    /** The functions' defaults. */
    public static final BreakerSettings DEFAULT = new BreakerSettings(Optional.empty(), Optional.empty());

    /** Refuses a period that is not positive, or a cap below the period (the function would refuse to start). */
    public BreakerSettings {
        openPeriod.ifPresent(p -> requirePositive("breakerOpenPeriod", p));
        maxOpenPeriod.ifPresent(p -> requirePositive("breakerMaxOpenPeriod", p));
        Duration period = openPeriod.orElse(Duration.ofSeconds(30));
        Duration cap = maxOpenPeriod.orElse(Duration.ofMinutes(10));
        if (cap.compareTo(period) < 0) {
            throw new IllegalArgumentException("breakerMaxOpenPeriod " + cap + " is below the open period " + period
                    + ": set -c breakerMaxOpenPeriod at least -c breakerOpenPeriod");
        }
    }

    /** The environment variables of {@code dependency}'s breaker ({@code email-provider}) for what is set. */
    public Map<String, String> environment(String dependency) {
        String prefix = "REDRIVE_BREAKERS_"
                + dependency.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "_";
        Map<String, String> env = new TreeMap<>();
        openPeriod.ifPresent(p -> env.put(prefix + "OPEN_PERIOD", IsoDurations.format(p)));
        maxOpenPeriod.ifPresent(p -> env.put(prefix + "MAX_OPEN_PERIOD", IsoDurations.format(p)));
        return env;
    }

    private static void requirePositive(String key, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be positive, was " + d);
        }
    }
}
