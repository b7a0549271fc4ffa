package dev.redrive.core.replay;

import dev.redrive.testing.replay.InMemoryReplayPaceStore;
import dev.redrive.testing.replay.ReplayPaceStoreContract;

class InMemoryReplayPaceStoreTest extends ReplayPaceStoreContract {
    private final InMemoryReplayPaceStore store = new InMemoryReplayPaceStore();

    @Override
    protected ReplayPaceStore store() {
        return store;
    }
}
