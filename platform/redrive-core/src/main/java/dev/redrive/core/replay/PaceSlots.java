package dev.redrive.core.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Replay slots booked in one lane: {@code count} slots, {@code spacing} apart, the first at {@code first}. A replay sent
 * for a slot becomes visible in its source queue at that slot, not before; the lane's next free slot is {@link #end}.
 *
 * @param first   the first slot (when {@code count} is 0: where the next booking would start)
 * @param count   how many slots were booked; 0 when the lane is booked up to the horizon
 * @param spacing the time between two slots: one over the lane's rate
 */
public record PaceSlots(Instant first, int count, Duration spacing) {

    public PaceSlots {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(spacing, "spacing");
        if (count < 0 || spacing.isNegative() || spacing.isZero()) {
            throw new IllegalArgumentException("a booking needs a count >= 0 and a positive spacing");
        }
    }

    /**
     * The booking rule every store applies under its own atomicity: the first slot is the lane's next free slot or
     * {@code now}, whichever is later (an idle lane saves up no burst), and no slot is later than {@code latest}.
     *
     * @param nextFree the lane's next free slot as stored; null for a lane never booked
     */
    public static PaceSlots book(Instant nextFree, int wanted, Duration spacing, Instant now, Instant latest) {
        if (wanted < 0) {
            throw new IllegalArgumentException("wanted must be >= 0");
        }
        Instant start = nextFree == null || nextFree.isBefore(now) ? now : nextFree;
        if (start.isAfter(latest)) {
            return new PaceSlots(start, 0, spacing);
        }
        long room = Duration.between(start, latest).toNanos() / spacing.toNanos() + 1;
        return new PaceSlots(start, (int) Math.min(wanted, room), spacing);
    }

    /** The {@code i}-th slot, from 0. */
    public Instant at(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("slot " + i + " of " + count);
        }
        return first.plus(spacing.multipliedBy(i));
    }

    /** The slot after the last one booked: the lane's next free slot once this booking is stored. */
    public Instant end() {
        return first.plus(spacing.multipliedBy(count));
    }
}
