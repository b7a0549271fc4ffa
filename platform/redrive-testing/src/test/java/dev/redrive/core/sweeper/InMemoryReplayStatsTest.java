package dev.redrive.core.sweeper;

import dev.redrive.testing.sweeper.InMemoryReplayStats;
import dev.redrive.testing.sweeper.ReplayStatsContract;

class InMemoryReplayStatsTest extends ReplayStatsContract {
    @Override
    protected ReplayStats newStats() {
        return new InMemoryReplayStats();
    }
}
