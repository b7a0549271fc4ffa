package dev.redrive.core.replay;

class InMemoryReplayPaceStoreTest extends ReplayPaceStoreContract {
    private final InMemoryReplayPaceStore store = new InMemoryReplayPaceStore();

    @Override
    protected ReplayPaceStore store() {
        return store;
    }
}
