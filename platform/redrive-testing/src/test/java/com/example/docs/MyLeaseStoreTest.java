package com.example.docs;

import dev.redrive.core.lease.LeaseStore;
import dev.redrive.testing.lease.InMemoryLeaseStore;
import dev.redrive.testing.lease.LeaseStoreContract;

// docs/testing.md, "Run a contract suite against your adapter": a subclass in a user's package, outside Redrive's.
class MyLeaseStoreTest extends LeaseStoreContract {

    private final LeaseStore store = new InMemoryLeaseStore(); // your adapter here

    @Override
    protected LeaseStore store() {
        return store;
    }
}
