package dev.redrive.core.replay;

import dev.redrive.testing.replay.InMemoryPayloadStore;
import dev.redrive.testing.replay.PayloadStoreContract;

class InMemoryPayloadStoreTest extends PayloadStoreContract {
    @Override
    protected PayloadStore newStore() {
        return new InMemoryPayloadStore();
    }
}
