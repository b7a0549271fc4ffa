package dev.redrive.testing.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.replay.PaceSlots;
import dev.redrive.core.replay.ReplayPaceStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link ReplayPaceStore}, for the in-memory fake and DynamoDB: bookings of a lane follow one another
 * at its spacing, never past the latest slot asked for, never from the past; the unused tail goes back only when nobody
 * booked after it; and of sweepers and CLIs booking one lane at once, no two get the same slot, nor two slots closer
 * than the spacing.
 */
public abstract class ReplayPaceStoreContract {

    protected static final Instant T0 = Instant.parse("2026-12-03T12:00:00.250Z");
    protected static final Duration SPACING = Duration.ofMillis(100);

    protected abstract ReplayPaceStore store();

    /** Another sweeper or CLI on the same store (on DynamoDB: another client of the same table). */
    protected ReplayPaceStore anotherBooker() {
        return store();
    }

    protected static String lane() {
        return "mail-" + UUID.randomUUID();
    }

    @Test
    void aLaneNeverBookedStartsNow() {
        PaceSlots slots = store().book(lane(), 5, SPACING, T0, T0.plusSeconds(60));

        assertThat(slots).isEqualTo(new PaceSlots(T0, 5, SPACING));
        assertThat(slots.at(4)).isEqualTo(T0.plusMillis(400));
    }

    @Test
    void aBookingStartsWhereTheLastEnded() {
        String lane = lane();
        store().book(lane, 5, SPACING, T0, T0.plusSeconds(60));

        PaceSlots next = store().book(lane, 3, SPACING, T0.plusMillis(10), T0.plusSeconds(60));

        assertThat(next).isEqualTo(new PaceSlots(T0.plusMillis(500), 3, SPACING));
    }

    @Test
    void noSlotIsBookedPastTheLatestAskedFor() {
        String lane = lane();
        PaceSlots first = store().book(lane, 100, SPACING, T0, T0.plusSeconds(1));

        PaceSlots full = store().book(lane, 10, SPACING, T0, T0.plusSeconds(1));

        assertThat(first.count()).as("slots at T0, T0+100ms .. T0+1s").isEqualTo(11);
        assertThat(full.count()).isZero();
        assertThat(full.first()).as("where the next booking would start").isEqualTo(T0.plusMillis(1100));
        assertThat(store().book(lane, 1, SPACING, T0.plusMillis(1100), T0.plusSeconds(2)))
                .isEqualTo(new PaceSlots(T0.plusMillis(1100), 1, SPACING));
    }

    @Test
    void anIdleLaneSavesUpNoBurst() {
        String lane = lane();
        store().book(lane, 2, SPACING, T0, T0.plusSeconds(60));

        PaceSlots later = store().book(lane, 3, SPACING, T0.plusSeconds(3600), T0.plusSeconds(3660));

        assertThat(later.first()).isEqualTo(T0.plusSeconds(3600));
        assertThat(later.end()).isEqualTo(T0.plusSeconds(3600).plusMillis(300));
    }

    @Test
    void aBookerSeesTheSlotsAnotherGaveBack() {
        String lane = lane();
        ReplayPaceStore other = anotherBooker();
        PaceSlots theirs = other.book(lane, 20, SPACING, T0, T0.plusSeconds(1));
        assertThat(store().book(lane, 1, SPACING, T0, T0.plusSeconds(1)).count())
                .as("booked up to the horizon")
                .isZero();

        other.giveBack(lane, theirs, 5);

        assertThat(store().book(lane, 2, SPACING, T0, T0.plusSeconds(1)))
                .isEqualTo(new PaceSlots(T0.plusMillis(500), 2, SPACING));
    }

    @Test
    void lanesAreApart() {
        String mail = lane();
        String payments = lane();
        store().book(mail, 50, SPACING, T0, T0.plusSeconds(60));

        assertThat(store().book(payments, 1, SPACING, T0, T0.plusSeconds(60)).first())
                .isEqualTo(T0);
    }

    @Test
    void theUnusedTailGoesBackWhenNobodyBookedAfterIt() {
        String lane = lane();
        PaceSlots booked = store().book(lane, 10, SPACING, T0, T0.plusSeconds(60));

        store().giveBack(lane, booked, 4);

        assertThat(store().book(lane, 1, SPACING, T0, T0.plusSeconds(60)).first())
                .isEqualTo(T0.plusMillis(400));
    }

    @Test
    void theUnusedTailStaysEmptyWhenSomeoneBookedAfterIt() {
        String lane = lane();
        PaceSlots mine = store().book(lane, 10, SPACING, T0, T0.plusSeconds(60));
        PaceSlots theirs = store().book(lane, 2, SPACING, T0, T0.plusSeconds(60));

        store().giveBack(lane, mine, 4);

        assertThat(theirs.first()).isEqualTo(T0.plusSeconds(1));
        assertThat(store().book(lane, 1, SPACING, T0, T0.plusSeconds(60)).first())
                .as("after their booking, never inside it")
                .isEqualTo(T0.plusMillis(1200));
    }

    @Test
    void ofSweepersAndClisBookingOneLaneAtOnceNoTwoSlotsAreCloserThanTheSpacing() throws Exception {
        int bookers = 4;
        int rounds = rounds();
        ExecutorService pool = Executors.newFixedThreadPool(bookers);
        try {
            String lane = lane();
            List<ReplayPaceStore> stores = new ArrayList<>();
            for (int b = 0; b < bookers; b++) {
                stores.add(anotherBooker());
            }
            List<Instant> all = new ArrayList<>();
            int booked = 0;
            int asked = 0;
            for (int round = 0; round < rounds; round++) {
                CyclicBarrier start = new CyclicBarrier(bookers);
                List<Future<PaceSlots>> bookings = new ArrayList<>();
                Random random = new Random(round);
                for (int b = 0; b < bookers; b++) {
                    ReplayPaceStore booker = stores.get(b);
                    int wanted = 1 + random.nextInt(20);
                    asked += wanted;
                    Instant now = T0.plusMillis(round * 50L);
                    bookings.add(pool.submit((Callable<PaceSlots>) () -> {
                        start.await(10, TimeUnit.SECONDS);
                        return booker.book(lane, wanted, SPACING, now, now.plus(Duration.ofMinutes(15)));
                    }));
                }
                for (Future<PaceSlots> f : bookings) {
                    PaceSlots s = f.get(30, TimeUnit.SECONDS);
                    booked += s.count();
                    for (int i = 0; i < s.count(); i++) {
                        all.add(s.at(i));
                    }
                }
            }
            all.sort(null);
            for (int i = 1; i < all.size(); i++) {
                assertThat(Duration.between(all.get(i - 1), all.get(i)))
                        .as("slots %d and %d of %d", i - 1, i, all.size())
                        .isGreaterThanOrEqualTo(SPACING);
            }
            assertThat(booked).as("every slot asked for fits the horizon").isEqualTo(asked);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Rounds of the concurrent booking test (fewer where each booking is a network call). */
    protected int rounds() {
        return 50;
    }
}
