package dev.redrive.core.quarantine;

import dev.redrive.core.lease.InMemoryLeaseStore;
import dev.redrive.core.lease.LeaseStore;
import java.time.Clock;

class InMemoryQuarantineLedgerTest extends QuarantineLedgerContract {
    private final InMemoryLeaseStore leaseStore = new InMemoryLeaseStore();

    @Override
    protected QuarantineLedger ledger(Clock clock) {
        return new InMemoryQuarantineLedger(leaseStore, clock);
    }

    @Override
    protected LeaseStore leases() {
        return leaseStore;
    }
}
