package dev.redrive.core.lease;

class InMemoryLeaseStoreTest extends LeaseStoreContract {
    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    @Override
    protected LeaseStore store() {
        return store;
    }
}
