package dev.redrive.core.breaker;

import dev.redrive.testing.breaker.BreakerStoreContract;
import dev.redrive.testing.breaker.InMemoryBreakerStore;

class InMemoryBreakerStoreTest extends BreakerStoreContract {
    private final InMemoryBreakerStore store = new InMemoryBreakerStore();

    @Override
    protected BreakerStore store() {
        return store;
    }
}
