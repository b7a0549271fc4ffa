package dev.redrive.core.replay;

class InMemoryPayloadStoreTest extends PayloadStoreContract {
    @Override
    protected PayloadStore newStore() {
        return new InMemoryPayloadStore();
    }
}
