package dev.redrive.core.quarantine;

import dev.redrive.core.lease.LeaseStore;
import dev.redrive.testing.lease.InMemoryLeaseStore;
import dev.redrive.testing.quarantine.InMemoryQuarantineLedger;
import dev.redrive.testing.quarantine.QuarantineLedgerContract;
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
