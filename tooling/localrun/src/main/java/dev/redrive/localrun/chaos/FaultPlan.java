package dev.redrive.localrun.chaos;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * What to inject, and how often: for each kind, the chance that it strikes at one opportunity (one AWS call of the
 * kind it applies to, one event taken, one sweep, one payment authorization), and for sandbox kills a chance per
 * {@link KillPoint} (a consumer's step or a producer's crash point).
 *
 * @param seed       seeds every decision
 * @param rates      chance per opportunity, by kind (absent: never)
 * @param killRates  chance per opportunity of a kill at each point, by the point's id (absent: the
 *                   {@link FaultKind#SANDBOX_KILL} rate)
 * @param maxLatency the most latency one call gets (uniform from a tenth of it)
 */
public record FaultPlan(long seed, Map<FaultKind, Double> rates, Map<String, Double> killRates, Duration maxLatency) {

    public FaultPlan {
        rates = rates.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(rates));
        killRates = Map.copyOf(killRates);
        rates.forEach((k, r) -> requireChance(k.flag(), r));
        killRates.forEach((id, r) -> {
            if (KillPoint.byId(id).isEmpty()) {
                throw new IllegalArgumentException(
                        "no kill point is named '" + id + "' (one of " + KillPoint.ids() + ")");
            }
            requireChance("kill at " + id, r);
        });
    }

    /** Nothing injected. */
    public static FaultPlan none(long seed) {
        return new FaultPlan(seed, Map.of(), Map.of(), Duration.ofMillis(500));
    }

    public double rate(FaultKind kind) {
        return rates.getOrDefault(kind, 0.0);
    }

    public double killRate(KillPoint point) {
        return killRates.getOrDefault(point.id(), rate(FaultKind.SANDBOX_KILL));
    }

    public FaultPlan with(FaultKind kind, double rate) {
        Map<FaultKind, Double> r = new EnumMap<>(FaultKind.class);
        r.putAll(rates);
        r.put(kind, rate);
        return new FaultPlan(seed, r, killRates, maxLatency);
    }

    public FaultPlan withKill(KillPoint point, double rate) {
        Map<String, Double> r = new HashMap<>(killRates);
        r.put(point.id(), rate);
        return new FaultPlan(seed, rates, r, maxLatency);
    }

    public FaultPlan withMaxLatency(Duration latency) {
        return new FaultPlan(seed, rates, killRates, latency);
    }

    private static void requireChance(String what, double rate) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("the rate of " + what + " must be between 0 and 1, was " + rate);
        }
    }
}
