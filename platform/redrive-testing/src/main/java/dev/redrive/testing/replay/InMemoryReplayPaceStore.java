package dev.redrive.testing.replay;

import dev.redrive.core.replay.PaceSlots;
import dev.redrive.core.replay.ReplayPaceStore;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** The in-memory fake of the replay pace store: the same rule as DynamoDB under one lock. */
public final class InMemoryReplayPaceStore implements ReplayPaceStore {

    private final Map<String, Instant> nextFree = new HashMap<>();

    @Override
    public synchronized PaceSlots book(String lane, int wanted, Duration spacing, Instant now, Instant latest) {
        PaceSlots slots = PaceSlots.book(nextFree.get(lane), wanted, spacing, now, latest);
        if (slots.count() > 0) {
            nextFree.put(lane, slots.end());
        }
        return slots;
    }

    @Override
    public synchronized void giveBack(String lane, PaceSlots booked, int used) {
        if (used < booked.count() && booked.end().equals(nextFree.get(lane))) {
            nextFree.put(lane, booked.at(used));
        }
    }
}
