package dev.redrive.localrun.chaos;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides where faults strike and counts every injection by kind and step, with its time (for the report's chart).
 *
 * <p>A decision is a function of the seed, the kind, the step, the identity of what is at stake (an idempotency key,
 * a queue) and how often that identity has reached that step: so a given seed strikes the same orders at the same
 * steps as far as the run's interleaving lets them reach those steps the same number of times, whichever thread asks
 * first.
 */
public final class FaultInjector {

    /** One injection. */
    public record Injection(long atMillis, FaultKind kind, String step) {}

    private final FaultPlan plan;
    private volatile boolean enabled;
    private final Map<String, AtomicLong> occurrences = new ConcurrentHashMap<>();
    private final Map<FaultKind, Map<String, AtomicLong>> counts = new ConcurrentHashMap<>();
    private final List<Injection> injections = new ArrayList<>();
    /** The kinds (kill points) that struck at least once, when the plan strikes each at least once. */
    private final Set<String> struckOnce = ConcurrentHashMap.newKeySet();

    public FaultInjector(FaultPlan plan) {
        this.plan = plan;
    }

    public FaultPlan plan() {
        return plan;
    }

    /** Faults strike only while enabled (the run heals by disabling them before it drains). */
    public void enabled(boolean on) {
        this.enabled = on;
    }

    public boolean enabled() {
        return enabled;
    }

    /** The next opportunity of {@code identity} at {@code step}: every kind is decided on the same draw. */
    public Draw draw(String step, String identity) {
        long n = occurrences
                .computeIfAbsent(step + '\u0000' + identity, k -> new AtomicLong())
                .incrementAndGet();
        return new Draw(step, mix(plan.seed(), step.hashCode(), identity.hashCode(), n));
    }

    /** One opportunity: {@link #strikes} says whether a kind strikes here (and counts it when it does). */
    public final class Draw {
        private final String step;
        private final long base;

        private Draw(String step, long base) {
            this.step = step;
            this.base = base;
        }

        /** Whether {@code kind} strikes at this opportunity with {@code rate}; counted when it does. */
        public boolean strikes(FaultKind kind, double rate) {
            if (!wouldStrike(kind, rate)) {
                return false;
            }
            record(kind, step);
            return true;
        }

        public boolean strikes(FaultKind kind) {
            return strikes(kind, plan.rate(kind));
        }

        /**
         * Whether {@code kind} would strike here with {@code rate}, without counting it: for a fault whose injection
         * can still fail to happen (the caller {@link #record records} it when it does).
         */
        public boolean wouldStrike(FaultKind kind, double rate) {
            if (!enabled || rate <= 0) {
                return false;
            }
            boolean byRate = uniform(kind.ordinal() + 1) < rate;
            if (!plan.eachAtLeastOnce()) {
                return byRate;
            }
            // the first opportunity of a kind (of a kill point) strikes whatever its draw: one thread's add wins
            boolean first = struckOnce.add(FaultPlan.once(kind, step));
            return byRate || first;
        }

        /** A number in [0, 1) for choices within a fault (which latency, which item conflicts). */
        public double uniform(int salt) {
            return (mix(base, salt, 0x9E3779B9, 0) >>> 11) * 0x1.0p-53;
        }

        public String step() {
            return step;
        }
    }

    /**
     * What the plan strikes at least once ({@link FaultPlan#planned()}) that has not struck yet; empty when the plan
     * does not ask for it.
     */
    public Set<String> notStruckYet() {
        if (!plan.eachAtLeastOnce()) {
            return Set.of();
        }
        Set<String> left = new TreeSet<>(plan.planned());
        left.removeAll(struckOnce);
        return left;
    }

    /** Counts an injection decided elsewhere (two sweepers started together, say). */
    public void record(FaultKind kind, String step) {
        counts.computeIfAbsent(kind, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(step, s -> new AtomicLong())
                .incrementAndGet();
        synchronized (injections) {
            injections.add(new Injection(System.currentTimeMillis(), kind, step));
        }
    }

    /** Injections by kind and step, in the order of the kinds. */
    public Map<FaultKind, Map<String, Long>> counts() {
        Map<FaultKind, Map<String, Long>> all = new EnumMap<>(FaultKind.class);
        counts.forEach((kind, bySteps) -> {
            Map<String, Long> steps = new TreeMap<>();
            bySteps.forEach((s, n) -> steps.put(s, n.get()));
            all.put(kind, steps);
        });
        return all;
    }

    public long total(FaultKind kind) {
        return counts().getOrDefault(kind, Map.of()).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    public List<Injection> injections() {
        synchronized (injections) {
            return List.copyOf(injections);
        }
    }

    /** SplitMix64 over the inputs. */
    static long mix(long a, long b, long c, long d) {
        long z = a * 0x9E3779B97F4A7C15L + b;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L + c;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL + d;
        z = (z ^ (z >>> 31)) * 0x9E3779B97F4A7C15L;
        return z ^ (z >>> 29);
    }
}
