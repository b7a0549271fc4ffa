package dev.redrive.core.lease;

import dev.redrive.testing.lease.InMemoryLeaseStore;
import dev.redrive.testing.lease.LeaseStoreContract;

class InMemoryLeaseStoreTest extends LeaseStoreContract {
    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    @Override
    protected LeaseStore store() {
        return store;
    }
}
