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
 * @param eachAtLeastOnce whether each kind with a rate above 0, and each kill point with one, also strikes at its
 *                   first opportunity of the run ({@code --each-at-least-once}): a run then sees every fault it plans
 *                   without the volume its rates would need, and its rates say how often the kinds strike after that
 */
public record FaultPlan(
        long seed,
        Map<FaultKind, Double> rates,
        Map<String, Double> killRates,
        Duration maxLatency,
        boolean eachAtLeastOnce) {

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

    /** A plan whose faults strike by their rates alone. */
    public FaultPlan(long seed, Map<FaultKind, Double> rates, Map<String, Double> killRates, Duration maxLatency) {
        this(seed, rates, killRates, maxLatency, false);
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
        return new FaultPlan(seed, r, killRates, maxLatency, eachAtLeastOnce);
    }

    public FaultPlan withKill(KillPoint point, double rate) {
        Map<String, Double> r = new HashMap<>(killRates);
        r.put(point.id(), rate);
        return new FaultPlan(seed, rates, r, maxLatency, eachAtLeastOnce);
    }

    public FaultPlan withMaxLatency(Duration latency) {
        return new FaultPlan(seed, rates, killRates, latency, eachAtLeastOnce);
    }

    /** This plan, with each planned kind and kill point striking at its first opportunity too. */
    public FaultPlan withEachAtLeastOnce() {
        return new FaultPlan(seed, rates, killRates, maxLatency, true);
    }

    /**
     * What {@link #eachAtLeastOnce} strikes once: every kind with a rate above 0 (sandbox kills apart), and every kill
     * point whose rate is above 0, named as {@link FaultInjector} counts them ({@code "kill at <point>"} for a point).
     */
    public java.util.Set<String> planned() {
        java.util.Set<String> planned = new java.util.TreeSet<>();
        rates.forEach((kind, rate) -> {
            if (kind != FaultKind.SANDBOX_KILL && rate > 0) {
                planned.add(once(kind, ""));
            }
        });
        KillPoint.all().filter(p -> killRate(p) > 0).forEach(p -> planned.add(once(FaultKind.SANDBOX_KILL, p.id())));
        return planned;
    }

    /** The name under which a kind (a kill point, for sandbox kills) strikes once: see {@link #planned()}. */
    static String once(FaultKind kind, String step) {
        return kind == FaultKind.SANDBOX_KILL ? "kill at " + step : kind.flag();
    }

    private static void requireChance(String what, double rate) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("the rate of " + what + " must be between 0 and 1, was " + rate);
        }
    }
}
