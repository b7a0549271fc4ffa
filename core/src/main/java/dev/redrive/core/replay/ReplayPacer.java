package dev.redrive.core.replay;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerStore;
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
 * The pacing of one replay request, lane by lane ({@link ReplayPace}): before any check, a lane whose dependency's
 * breaker is not CLOSED holds all its dead letters, untouched; the others book a slot for each dead letter to be
 * checked, and those past the lane's horizon are held, untouched, for a later run. After the checks, the dead letters
 * ready to send take their lane's slots in order, and the slots left unused are given back.
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

    ReplayPacer(ReplayPaceStore store, ReplayPace pace, Optional<BreakerStore> breakers) {
        this.store = store;
        this.pace = pace;
        this.breakers = breakers;
    }

    /** Starts the pacing of {@code candidates} (the records about to be checked), at {@code now}. */
    Round round(List<QuarantineRecord> candidates, Predicate<String> takesDelays, Instant now) {
        Map<String, List<QuarantineRecord>> byLane = new LinkedHashMap<>();
        for (QuarantineRecord r : candidates) {
            byLane.computeIfAbsent(ReplayPace.laneOf(r), k -> new ArrayList<>()).add(r);
        }
        Round round = new Round();
        byLane.forEach((lane, records) -> {
            Optional<BreakerState> open = openBreaker(lane);
            if (open.isPresent()) {
                Instant until = open.get().openUntil() != null
                        ? open.get().openUntil()
                        : open.get().probeLeaseUntil();
                String reason = "the " + lane + " breaker is " + open.get().status()
                        + (open.get().status() == BreakerState.Status.OPEN ? " until " + until : " (a probe runs)")
                        + ": no replay reaches it meanwhile";
                records.forEach(r -> round.held.put(r.id(), new ReplayOutcome.Held(r.id(), lane, reason, until)));
                return;
            }
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
        });
        return round;
    }

    /** The dependency's breaker when it is OPEN or HALF_OPEN; a breaker that cannot be read lets replays through. */
    private Optional<BreakerState> openBreaker(String lane) {
        if (breakers.isEmpty() || lane.startsWith(ReplayPace.CONSUMER_LANE_PREFIX)) {
            return Optional.empty();
        }
        try {
            BreakerState state = breakers.get().read(lane);
            return state.status() == BreakerState.Status.CLOSED ? Optional.empty() : Optional.of(state);
        } catch (RuntimeException unreadable) {
            return Optional.empty(); // fails open, as the consumers' breaker does: the replays are still paced
        }
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
        private final Map<String, ReplayOutcome.Held> held = new LinkedHashMap<>();
        private final Map<String, Booking> booked = new HashMap<>();

        /** The dead letters held, untouched, with why; the candidates not here are admitted to the checks. */
        Map<String, ReplayOutcome.Held> held() {
            return held;
        }

        /** The next slot of {@code r}'s lane, for a replay ready to send. */
        Instant slotFor(QuarantineRecord r) {
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
