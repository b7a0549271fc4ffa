package dev.redrive.core.replay;

import dev.redrive.core.breaker.Admission;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.core.breaker.ProbeTicket;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The pacing of one replay request, lane by lane ({@link ReplayPace}): before any check, a lane's dependency's breaker is
 * asked, by the breaker's own rules ({@link CircuitBreakerRules#admit}), whether a call may go now. Refused (OPEN or
 * held in its period, or a probe holding its lease), the lane holds all its dead letters, untouched, until then. Due for
 * a probe (its open period over, or the last probe's lease lapsed), one replay takes the probe lease as a consumer's
 * call does (the same conditional write): that dead letter is sent at once with the lease's {@link ProbeTicket}, so the
 * consumer receiving it is the probe, and the others wait, untouched, for its answer. Otherwise each dead letter to be
 * checked books a slot, and those past the lane's horizon are held, untouched, for a later run. After the checks, the
 * dead letters ready to send take their lane's slots in order, and the slots left unused are given back.
 */
final class ReplayPacer {

    /**
     * A queue that takes no per-message delay (FIFO) is booked only this far ahead, and its replays are sent at once:
     * a FIFO lane sends about one second of its rate per request, and the rest waits for the next run.
     */
    static final Duration UNDELAYED_HORIZON = Duration.ofSeconds(1);

    private final ReplayPaceStore store;
    private final ReplayPace pace;
    private final Optional<BreakerStore> breakers;
    private final CircuitBreakerRules rules;

    ReplayPacer(ReplayPaceStore store, ReplayPace pace, Optional<BreakerStore> breakers, BreakerPolicy policy) {
        this.store = store;
        this.pace = pace;
        this.breakers = breakers;
        this.rules = new CircuitBreakerRules(policy);
    }

    /** Starts the pacing of {@code candidates} (the records about to be checked), at {@code now}. */
    Round round(List<QuarantineRecord> candidates, Predicate<String> takesDelays, Instant now) {
        Map<String, List<QuarantineRecord>> byLane = new LinkedHashMap<>();
        for (QuarantineRecord r : candidates) {
            byLane.computeIfAbsent(ReplayPace.laneOf(r), k -> new ArrayList<>()).add(r);
        }
        Round round = new Round(now);
        byLane.forEach((lane, records) -> {
            Gate gate = gate(lane, now);
            if (gate instanceof Gate.Shut shut) {
                records.forEach(
                        r -> round.held.put(r.id(), new ReplayOutcome.Held(r.id(), lane, shut.why(), shut.until())));
                return;
            }
            if (gate instanceof Gate.Probing probing) {
                QuarantineRecord probe = records.get(0);
                round.probes.put(probe.id(), probing.ticket());
                String why = "replay of " + probe.id() + " probes the " + lane + " breaker (its lease ends at "
                        + probing.until() + "): the others wait for its answer";
                records.subList(1, records.size())
                        .forEach(r ->
                                round.held.put(r.id(), new ReplayOutcome.Held(r.id(), lane, why, probing.until())));
                return;
            }
            book(round, lane, records, takesDelays, now);
        });
        return round;
    }

    private void book(
            Round round, String lane, List<QuarantineRecord> records, Predicate<String> takesDelays, Instant now) {
        boolean delayed = records.stream().allMatch(r -> takesDelays.test(r.sourceQueue()));
        Duration ahead = delayed ? pace.horizon() : UNDELAYED_HORIZON;
        Instant latest = now.plus(ahead);
        PaceSlots slots;
        try {
            slots = store.book(lane, records.size(), pace.spacing(lane), now, latest);
        } catch (RuntimeException e) {
            String reason = "the replay pace of " + lane + " could not be booked ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
            records.forEach(r -> round.held.put(r.id(), new ReplayOutcome.Held(r.id(), lane, reason, now)));
            return;
        }
        round.booked.put(lane, new Booking(slots));
        String reason = lane + "'s replays are booked until " + slots.end() + " (" + rate(pace.perSecond(lane))
                + " a second, at most " + ahead + " ahead)";
        Instant until = slots.end().minus(ahead);
        records.subList(slots.count(), records.size())
                .forEach(r -> round.held.put(r.id(), new ReplayOutcome.Held(r.id(), lane, reason, until)));
    }

    /** What a lane's breaker lets its replays do now. */
    private sealed interface Gate {
        /** Paced as usual: no breaker, or it is CLOSED (or cannot be read or written: replays fail open). */
        record Paced() implements Gate {}

        /** None goes before {@code until}. */
        record Shut(String why, Instant until) implements Gate {}

        /** One replay is the probe, under {@code ticket}'s lease until {@code until}. */
        record Probing(ProbeTicket ticket, Instant until) implements Gate {}
    }

    private Gate gate(String lane, Instant now) {
        if (breakers.isEmpty() || lane.startsWith(ReplayPace.CONSUMER_LANE_PREFIX)) {
            return new Gate.Paced();
        }
        BreakerState state;
        try {
            state = breakers.get().read(lane);
        } catch (RuntimeException unreadable) {
            return new Gate.Paced(); // fails open, as the consumers' breaker does: the replays are still paced
        }
        Admission admission = rules.admit(state, now);
        if (admission instanceof Admission.Probe probe) {
            String reason = state.status() == BreakerState.Status.OPEN
                    ? "the open period ended: one replay probes the dependency"
                    : "the last probe's lease lapsed without a result: one replay probes again";
            try {
                if (breakers.get()
                        .transition(
                                lane,
                                probe.expectedToken(),
                                probe.halfOpen(),
                                BreakerTransition.of(state.status(), probe.halfOpen(), now, reason))) {
                    return new Gate.Probing(
                            ProbeTicket.of(lane, probe.halfOpen()),
                            probe.halfOpen().probeLeaseUntil());
                }
                state = breakers.get().read(lane); // another caller wrote first: its probe runs, or it answered
            } catch (RuntimeException storeDown) {
                return new Gate.Paced();
            }
            admission = rules.admit(state, now);
            if (admission instanceof Admission.Probe) {
                return new Gate.Shut(
                        "the " + lane + " breaker's probe is due again: the next run probes",
                        now.plus(rules.policy().probeLease()));
            }
        }
        if (admission instanceof Admission.Refuse refuse) {
            return new Gate.Shut(refusal(lane, state), now.plus(refuse.deferFor()));
        }
        return new Gate.Paced();
    }

    private static String refusal(String lane, BreakerState state) {
        return "the " + lane + " breaker is "
                + (state.status() == BreakerState.Status.HALF_OPEN
                        ? "HALF_OPEN (a probe runs until " + state.probeLeaseUntil() + ")"
                        : state.held()
                                ? "held OPEN by maintenance windows until " + state.openUntil()
                                : "OPEN until " + state.openUntil())
                + ": no replay reaches it meanwhile";
    }

    private static String rate(double perSecond) {
        return perSecond == Math.rint(perSecond) ? Long.toString((long) perSecond) : Double.toString(perSecond);
    }

    /** One lane's booking, taken slot by slot by the replays ready to send. */
    private static final class Booking {
        final PaceSlots slots;
        int used;

        Booking(PaceSlots slots) {
            this.slots = slots;
        }
    }

    /**
     * The pacing of one request: what it holds (every other candidate goes on to the checks), and the slots the ready
     * ones take.
     */
    final class Round {
        private final Instant now;
        private final Map<String, ReplayOutcome.Held> held = new LinkedHashMap<>();
        private final Map<String, Booking> booked = new HashMap<>();
        private final Map<String, ProbeTicket> probes = new HashMap<>();

        Round(Instant now) {
            this.now = now;
        }

        /** The dead letters held, untouched, with why; the candidates not here are admitted to the checks. */
        Map<String, ReplayOutcome.Held> held() {
            return held;
        }

        /** The probe lease {@code r}'s replay carries, when it is its breaker's probe. */
        Optional<ProbeTicket> probeOf(QuarantineRecord r) {
            return Optional.ofNullable(probes.get(r.id()));
        }

        /** The next slot of {@code r}'s lane, for a replay ready to send; a probe goes at once. */
        Instant slotFor(QuarantineRecord r) {
            if (probes.containsKey(r.id())) {
                return now;
            }
            Booking b = booked.get(ReplayPace.laneOf(r));
            if (b == null || b.used >= b.slots.count()) {
                throw new IllegalStateException("dead letter " + r.id() + " was not admitted by the pacing");
            }
            return b.slots.at(b.used++);
        }

        /** Gives back every lane's unused slots. */
        void finish() {
            booked.forEach((lane, b) -> {
                if (b.used < b.slots.count()) {
                    try {
                        store.giveBack(lane, b.slots, b.used);
                    } catch (RuntimeException e) {
                        // the unused slots stay empty: the lane only goes slower than its rate
                    }
                }
            });
        }
    }
}
