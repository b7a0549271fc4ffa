package dev.redrive.core.breaker;

class InMemoryBreakerStoreTest extends BreakerStoreContract {
    private final InMemoryBreakerStore store = new InMemoryBreakerStore();

    @Override
    protected BreakerStore store() {
        return store;
    }
}
