package dev.redrive.core.quarantine;

import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The in-memory fake of the ledger: versioned, fenced by a lease store, under one lock. */
public final class InMemoryQuarantineLedger implements QuarantineLedger {

    private final Map<String, QuarantineRecord> records = new HashMap<>();
    private final LeaseStore leases;
    private final Clock clock;

    public InMemoryQuarantineLedger(LeaseStore leases, Clock clock) {
        this.leases = leases;
        this.clock = clock;
    }

    @Override
    public synchronized Optional<QuarantineRecord> find(String id) {
        return Optional.ofNullable(records.get(id));
    }

    @Override
    public synchronized boolean insertIfAbsent(QuarantineRecord record, Optional<LeaseToken> fence) {
        if (!fenceHolds(fence) || records.containsKey(record.id())) {
            return false;
        }
        records.put(record.id(), record.withVersion(1));
        return true;
    }

    @Override
    public synchronized Optional<QuarantineRecord> save(QuarantineRecord record, Optional<LeaseToken> fence) {
        QuarantineRecord stored = records.get(record.id());
        if (!fenceHolds(fence) || stored == null || stored.version() != record.version()) {
            return Optional.empty();
        }
        QuarantineRecord saved = record.withVersion(record.version() + 1);
        records.put(record.id(), saved);
        return Optional.of(saved);
    }

    @Override
    public synchronized List<QuarantineRecord> inState(QuarantineState state, Optional<String> sourceQueue, int limit) {
        return records.values().stream()
                .filter(r -> r.state() == state && !r.archivedToStore())
                .filter(r -> sourceQueue.map(q -> q.equals(r.sourceQueue())).orElse(true))
                .sorted(Comparator.comparing(QuarantineRecord::arrivedAt).thenComparing(QuarantineRecord::id))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized List<QuarantineRecord> arrivedBefore(QuarantineState state, Instant cutoff, int limit) {
        return records.values().stream()
                .filter(r -> r.state() == state
                        && !r.archivedToStore()
                        && r.arrivedAt().isBefore(cutoff))
                .sorted(Comparator.comparing(QuarantineRecord::arrivedAt).thenComparing(QuarantineRecord::id))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized List<QuarantineRecord> unchangedSince(QuarantineState state, Instant cutoff, int limit) {
        return records.values().stream()
                .filter(r -> r.state() == state
                        && !r.archivedToStore()
                        && r.lastChangedAt().isBefore(cutoff))
                .sorted(Comparator.comparing(QuarantineRecord::arrivedAt).thenComparing(QuarantineRecord::id))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized List<QuarantineRecord> ofQueue(String sourceQueue, int limit) {
        return records.values().stream()
                .filter(r -> r.sourceQueue().equals(sourceQueue))
                .sorted(Comparator.comparing(QuarantineRecord::arrivedAt).thenComparing(QuarantineRecord::id))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized long count(QuarantineState state, String sourceQueue) {
        return records.values().stream()
                .filter(r -> r.state() == state
                        && !r.archivedToStore()
                        && r.sourceQueue().equals(sourceQueue))
                .count();
    }

    public synchronized List<QuarantineRecord> all() {
        return new ArrayList<>(records.values());
    }

    private boolean fenceHolds(Optional<LeaseToken> fence) {
        return fence.map(f -> leases.holds(f, clock.instant())).orElse(true);
    }

    /** Test support: the count of records by state. */
    public synchronized Map<QuarantineState, Integer> countByState() {
        Map<QuarantineState, Integer> counts = new HashMap<>();
        records.values().forEach(r -> counts.merge(r.state(), 1, Integer::sum));
        return counts;
    }
}
