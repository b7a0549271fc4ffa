package dev.redrive.core.sweeper;

class InMemoryReplayStatsTest extends ReplayStatsContract {
    @Override
    protected ReplayStats newStats() {
        return new InMemoryReplayStats();
    }
}
