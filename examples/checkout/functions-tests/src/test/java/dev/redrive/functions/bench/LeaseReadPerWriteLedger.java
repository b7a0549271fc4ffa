package dev.redrive.functions.bench;

import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The sweeper's write path before issue 16, behind the switch of {@code bin/benchmark sweeper}: a consistent read of
 * the lease before every fenced write, and one record per call (the port's batched reads and writes fall back to its
 * one-by-one defaults). The records keep their own fence condition, as they did.
 */
final class LeaseReadPerWriteLedger implements QuarantineLedger {

    private final QuarantineLedger ledger;
    private final LeaseStore leases;
    private final Clock clock;

    LeaseReadPerWriteLedger(QuarantineLedger ledger, LeaseStore leases, Clock clock) {
        this.ledger = ledger;
        this.leases = leases;
        this.clock = clock;
    }

    private boolean leaseHolds(Optional<LeaseToken> fence) {
        return fence.map(f -> leases.holds(f, clock.instant())).orElse(true);
    }

    @Override
    public Optional<QuarantineRecord> find(String id) {
        return ledger.find(id);
    }

    @Override
    public boolean insertIfAbsent(QuarantineRecord record, Optional<LeaseToken> fence) {
        return leaseHolds(fence) && ledger.insertIfAbsent(record, fence);
    }

    @Override
    public Optional<QuarantineRecord> save(QuarantineRecord record, Optional<LeaseToken> fence) {
        return leaseHolds(fence) ? ledger.save(record, fence) : Optional.empty();
    }

    @Override
    public List<QuarantineRecord> inState(QuarantineState state, Optional<String> sourceQueue, int limit) {
        return ledger.inState(state, sourceQueue, limit);
    }

    @Override
    public List<QuarantineRecord> arrivedBefore(QuarantineState state, Instant cutoff, int limit) {
        return ledger.arrivedBefore(state, cutoff, limit);
    }

    @Override
    public List<QuarantineRecord> unchangedSince(QuarantineState state, Instant cutoff, int limit) {
        return ledger.unchangedSince(state, cutoff, limit);
    }

    @Override
    public List<QuarantineRecord> ofQueue(String sourceQueue, int limit) {
        return ledger.ofQueue(sourceQueue, limit);
    }

    @Override
    public long count(QuarantineState state, String sourceQueue) {
        return ledger.count(state, sourceQueue);
    }
}
