package dev.redrive.core.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.redrive.core.breaker.BreakerListener;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.BreakerWrite;
import dev.redrive.core.breaker.CircuitBreaker;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.WindowChange;
import dev.redrive.testing.ManualClock;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import dev.redrive.testing.replay.InMemoryMaintenanceWindows;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 7, as a property: whatever sequence of window adds, replacements, removals and explicit holds, with
 * sweeps, consumers' calls (opening, probing, closing the breakers) and the passing of time, and whatever runs between
 * one operation's reads and its write (another operation started at every read of a window or a breaker) or fails
 * (a write of the control table that throws before it is stored, or after), no breaker is ever held past the end of
 * every window that exists and lasts; and after a sweep that finished, every breaker is held exactly as the windows
 * then ask. On the in-memory fakes, from one seed, printing how much of each it did.
 */
class WindowHoldsPropertyTest {

    static final long SEED = 36_07L;
    static final int SEQUENCES = 3_000;
    static final int STEPS = 40;
    static final Instant T0 = Instant.parse("2026-12-04T22:00:00Z");
    static final List<String> SHARED = List.of("mail", "payments");
    static final List<String> DEPENDENCIES = List.of("mail", "payments", "search");
    static final List<String> IDS = List.of("w0", "w1", "w2", "w3", "w4");
    static final BreakerPolicy POLICY =
            new BreakerPolicy(1, 1.0, 1, Duration.ofMinutes(1), Duration.ofMinutes(8), Duration.ofSeconds(30));

    final Map<String, Integer> counts = new TreeMap<>();

    void count(String what) {
        counts.merge(what, 1, Integer::sum);
    }

    @Test
    void noSequenceLeavesABreakerHeldPastEveryWindowThatExists() {
        SplittableRandom seeds = new SplittableRandom(SEED);
        for (int sequence = 0; sequence < SEQUENCES; sequence++) {
            long seed = seeds.nextLong();
            new Sequence(seed).run();
        }
        System.out.printf(
                "WindowHoldsPropertyTest: %d sequences x %d steps (%d top-level steps), seed %d: %s%n",
                SEQUENCES, STEPS, SEQUENCES * STEPS, SEED, counts);
        assertThat(counts)
                .as("every kind of step, interleaving and failure was exercised")
                .containsKeys(
                        "put",
                        "remove",
                        "hold",
                        "sweep settled",
                        "consumer call",
                        "interleaved",
                        "failed before the write",
                        "failed after the write",
                        "held breaker checked",
                        "hold released",
                        "retried on a changed token or window");
        assertThat(counts.get("held breaker checked")).isGreaterThan(SEQUENCES);
    }

    /** One random sequence on fresh fakes. */
    final class Sequence {
        final long seed;
        final SplittableRandom rng;
        final ManualClock clock = new ManualClock(T0);
        final InMemoryBreakerStore breakers = new InMemoryBreakerStore();
        final InMemoryMaintenanceWindows windows = new InMemoryMaintenanceWindows(breakers);
        final ChaoticWindows chaoticWindows = new ChaoticWindows();
        final ChaoticBreakers chaoticBreakers = new ChaoticBreakers();
        final BreakerHolds holds = new BreakerHolds(chaoticBreakers, chaoticWindows, SHARED);
        final Map<String, CircuitBreaker> consumers = new TreeMap<>();
        final List<String> log = new ArrayList<>();
        int depth;

        Sequence(long seed) {
            this.seed = seed;
            this.rng = new SplittableRandom(seed);
            for (String d : SHARED) {
                consumers.put(
                        d,
                        new CircuitBreaker(
                                d,
                                chaoticBreakers,
                                new CircuitBreakerRules(POLICY),
                                Duration.ZERO,
                                BreakerListener.NONE));
            }
        }

        void run() {
            for (int step = 0; step < STEPS; step++) {
                if (rng.nextInt(4) == 0) {
                    Duration d = Duration.ofMinutes(rng.nextInt(40));
                    clock.advance(d);
                    log.add("advance " + d);
                }
                boolean sweep = rng.nextInt(4) == 0;
                boolean ok = sweep ? sweep() : operation();
                checkNoHoldPastItsWindows();
                if (sweep && ok) {
                    checkSettled();
                }
            }
        }

        /** A sweep; true when it finished. */
        boolean sweep() {
            log.add("sweep at " + clock.instant());
            try {
                holds.holdDue(clock.instant());
                count("sweep settled");
                return true;
            } catch (RuntimeException e) {
                expected(e);
                return false;
            }
        }

        /** A person's or a consumer's step; true when it finished. */
        boolean operation() {
            Instant now = clock.instant();
            String id = IDS.get(rng.nextInt(IDS.size()));
            int kind = rng.nextInt(10);
            try {
                if (kind < 4) {
                    String dependency = DEPENDENCIES.get(rng.nextInt(DEPENDENCIES.size()));
                    Instant start = now.plus(Duration.ofMinutes(rng.nextInt(-90, 60)));
                    Instant end = start.plus(Duration.ofMinutes(1 + rng.nextInt(150)));
                    boolean holding = SHARED.contains(dependency) && rng.nextInt(3) > 0;
                    MaintenanceWindow w = new MaintenanceWindow(id, dependency, start, end, "cab", "", holding);
                    log.add("put " + w);
                    count("put");
                    holds.put(w, now);
                } else if (kind < 7) {
                    log.add("remove " + id);
                    count("remove");
                    holds.remove(id, now);
                } else if (kind < 8) {
                    Optional<MaintenanceWindow> w = windows.find(id);
                    if (w.isPresent()
                            && SHARED.contains(w.get().dependency())
                            && w.get().lastsAt(now)) {
                        log.add("hold " + id);
                        count("hold");
                        holds.hold(w.get(), now);
                    }
                } else {
                    consumerCall(now);
                }
                return true;
            } catch (RuntimeException e) {
                expected(e);
                return false;
            }
        }

        void consumerCall(Instant now) {
            String dependency = SHARED.get(rng.nextInt(SHARED.size()));
            CircuitBreaker breaker = consumers.get(dependency);
            CircuitBreaker.Permit permit = breaker.admit(now);
            log.add("consumer of " + dependency + ": " + permit.kind());
            count("consumer call");
            if (!permit.calls()) {
                return;
            }
            if (rng.nextBoolean()) {
                breaker.failedTransiently(permit, now);
            } else {
                breaker.answered(permit, now);
            }
        }

        void expected(RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            if (message.startsWith("injected")) {
                return; // counted where injected
            }
            if (e instanceof IllegalStateException && message.contains("attempts in a row")) {
                count("gave up after five attempts");
                return;
            }
            fail("sequence of seed " + seed + " threw " + e + "\n" + String.join("\n", log), e);
        }

        /** Another operation, started between this one's read and its write, at most one level deep. */
        void maybeInterleave() {
            if (depth > 0 || rng.nextInt(6) != 0) {
                return;
            }
            depth++;
            try {
                log.add("  interleaved:");
                count("interleaved");
                if (rng.nextInt(4) == 0) {
                    sweep();
                } else {
                    operation();
                }
            } finally {
                depth--;
            }
        }

        /** A write of the control table fails, before it is stored or after (its answer lost). */
        int fault() {
            int f = rng.nextInt(25);
            return f == 0 ? 1 : f == 1 ? 2 : 0;
        }

        void written(boolean written, BreakerTransition e) {
            if (written && e.reason().contains("hold ends")) {
                count("hold released");
            } else if (written && e.reason().startsWith("held open")) {
                count("hold written");
            } else if (written && e.reason().contains("unchanged")) {
                count("fenced without a change");
            }
        }

        void checkNoHoldPastItsWindows() {
            Instant now = clock.instant();
            for (String d : SHARED) {
                BreakerState b = breakers.read(d);
                if (b.status() == Status.OPEN && b.held() && b.openUntil().isAfter(now)) {
                    count("held breaker checked");
                    boolean asked = windows.list().stream()
                            .anyMatch(w -> w.dependency().equals(d)
                                    && w.holdsBreaker()
                                    && w.lastsAt(now)
                                    && w.end().equals(b.openUntil()));
                    if (!asked) {
                        fail("sequence of seed " + seed + ": " + d + "'s breaker " + b + " is held at " + now
                                + " with no window of it lasting to " + b.openUntil() + "; windows " + windows.list()
                                + "\n" + String.join("\n", log));
                    }
                }
            }
        }

        void checkSettled() {
            Instant now = clock.instant();
            for (String d : SHARED) {
                BreakerState b = breakers.read(d);
                Optional<MaintenanceWindow> holder = BreakerHolds.holder(windows.list(), d, now);
                BreakerState asked = CircuitBreakerRules.withHold(b, now, holder.map(MaintenanceWindow::end));
                if (!asked.equals(b)) {
                    fail("sequence of seed " + seed + ": after a sweep at " + now + ", " + d + "'s breaker " + b
                            + " is not as its windows ask (" + asked + "); windows " + windows.list() + "\n"
                            + String.join("\n", log));
                }
                if (b.held()) {
                    count("held as asked after a sweep");
                }
            }
        }

        final class ChaoticWindows implements MaintenanceWindows {
            @Override
            public void add(MaintenanceWindow window) {
                throw new UnsupportedOperationException("holds change windows with their breakers");
            }

            @Override
            public boolean remove(String id) {
                throw new UnsupportedOperationException("holds change windows with their breakers");
            }

            @Override
            public List<MaintenanceWindow> list() {
                List<MaintenanceWindow> read = windows.list();
                maybeInterleave();
                return read;
            }

            @Override
            public Optional<MaintenanceWindow> find(String id) {
                Optional<MaintenanceWindow> read = windows.find(id);
                maybeInterleave();
                return read;
            }

            @Override
            public boolean change(WindowChange change, List<BreakerWrite> writes) {
                int fault = fault();
                if (fault == 1) {
                    count("failed before the write");
                    throw new IllegalStateException("injected: the control table throttled the change");
                }
                boolean written = windows.change(change, writes);
                if (!written) {
                    count("retried on a changed token or window");
                }
                writes.forEach(w -> written(written, w.entry()));
                if (fault == 2) {
                    count("failed after the write");
                    throw new IllegalStateException("injected: the change's answer was lost");
                }
                return written;
            }
        }

        final class ChaoticBreakers implements BreakerStore {
            @Override
            public BreakerState read(String dependency) {
                BreakerState read = breakers.read(dependency);
                maybeInterleave();
                return read;
            }

            @Override
            public boolean transition(String dependency, long expectedToken, BreakerState next, BreakerTransition e) {
                int fault = fault();
                if (fault == 1) {
                    count("failed before the write");
                    throw new IllegalStateException("injected: the control table throttled the transition");
                }
                boolean written = breakers.transition(dependency, expectedToken, next, e);
                if (!written) {
                    count("retried on a changed token or window");
                }
                written(written, e);
                if (fault == 2) {
                    count("failed after the write");
                    throw new IllegalStateException("injected: the transition's answer was lost");
                }
                return written;
            }

            @Override
            public List<BreakerTransition> history(String dependency) {
                return breakers.history(dependency);
            }
        }
    }
}
