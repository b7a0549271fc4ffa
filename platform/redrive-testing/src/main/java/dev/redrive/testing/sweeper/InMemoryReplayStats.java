package dev.redrive.testing.sweeper;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.sweeper.ReplayStats;
import java.util.EnumMap;
import java.util.Map;

/** The in-memory fake of the replay statistics. */
public final class InMemoryReplayStats implements ReplayStats {
    private final Map<FailureClass, Totals> totals = new EnumMap<>(FailureClass.class);

    @Override
    public synchronized void add(FailureClass failureClass, long sent, long returned) {
        Totals t = totals.getOrDefault(failureClass, new Totals(0, 0));
        totals.put(failureClass, new Totals(t.sent() + sent, t.returned() + returned));
    }

    @Override
    public synchronized Map<FailureClass, Totals> totals() {
        return Map.copyOf(totals);
    }
}
