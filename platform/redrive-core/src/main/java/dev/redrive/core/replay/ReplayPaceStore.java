package dev.redrive.core.replay;

import java.time.Duration;
import java.time.Instant;

/**
 * Where the replay slots of every lane are booked (on AWS: one item per lane in the control table), shared by every
 * sweeper and every person's CLI: a slot is never given twice, so replays of one lane reach it at its rate whoever
 * sends them. Each store applies {@link PaceSlots#book} atomically.
 */
public interface ReplayPaceStore {

    /**
     * Books up to {@code wanted} slots of {@code lane}, {@code spacing} apart, by {@link PaceSlots#book}: the first at
     * the lane's next free slot or {@code now}, none after {@code latest}.
     *
     * @return the slots booked, possibly none
     */
    PaceSlots book(String lane, int wanted, Duration spacing, Instant now, Instant latest);

    /**
     * Gives back the slots of {@code booked} from index {@code used} on, which went unused (their dead letters were
     * already applied, refused or busy), if nobody booked after them: the lane's next free slot moves back to the
     * first unused one. When someone did, nothing changes and those slots stay empty: never faster than the rate.
     */
    void giveBack(String lane, PaceSlots booked, int used);
}
