package dev.redrive.testing.quarantine;

import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The in-memory fake of the ledger, under one lock, with DynamoDB's rules: versioned, and fenced as the port says: a
 * write under a lapsed token is refused, and so is one with a lower token than the record's highest (kept beside each
 * record as the adapter keeps it on the item; a write without a fence, a person's, keeps it, as the adapter's does).
 */
public final class InMemoryQuarantineLedger implements QuarantineLedger {

    private final Map<String, QuarantineRecord> records = new HashMap<>();
    /** The highest fencing token each record was written with. */
    private final Map<String, Long> fences = new HashMap<>();
    /**
     * The counts, kept under the lock with each write as the adapter keeps them in the write's transaction: by queue,
     * active records by state and tombstones by state.
     */
    private final Map<String, Map<QuarantineState, Long>> active = new HashMap<>();

    private final Map<String, Map<QuarantineState, Long>> tombstones = new HashMap<>();

    private final Clock clock;

    public InMemoryQuarantineLedger(Clock clock) {
        this.clock = clock;
    }

    /**
     * A ledger reading time from {@code clock}. The lease store is not read: a token carries its own lease's end (see
     * {@link QuarantineLedger}).
     */
    public InMemoryQuarantineLedger(LeaseStore leases, Clock clock) {
        this(clock);
    }

    @Override
    public synchronized Optional<QuarantineRecord> find(String id) {
        return Optional.ofNullable(records.get(id));
    }

    @Override
    public synchronized boolean insertIfAbsent(QuarantineRecord record, Optional<LeaseToken> fence) {
        if (!fenceHolds(record.id(), fence) || records.containsKey(record.id())) {
            return false;
        }
        records.put(record.id(), record.withVersion(1));
        fenced(record.id(), fence);
        tally(record, 1);
        return true;
    }

    @Override
    public synchronized Optional<QuarantineRecord> save(QuarantineRecord record, Optional<LeaseToken> fence) {
        QuarantineRecord stored = records.get(record.id());
        if (!fenceHolds(record.id(), fence) || stored == null || stored.version() != record.version()) {
            return Optional.empty();
        }
        QuarantineRecord saved = record.withVersion(record.version() + 1);
        records.put(record.id(), saved);
        fenced(record.id(), fence);
        tally(stored, -1);
        tally(saved, 1);
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

    private void tally(QuarantineRecord r, long delta) {
        Map<QuarantineState, Long> counts = (r.archivedToStore() ? tombstones : active)
                .computeIfAbsent(r.sourceQueue(), q -> new EnumMap<>(QuarantineState.class));
        long n = counts.merge(r.state(), delta, Long::sum);
        if (n < 0) {
            throw new IllegalStateException(
                    "the count of " + r.state() + " of " + r.sourceQueue() + " went below zero");
        }
        if (n == 0) {
            counts.remove(r.state());
        }
    }

    /** From the counts kept with each write, as the adapter reads them. */
    @Override
    public synchronized long count(QuarantineState state, String sourceQueue) {
        return active.getOrDefault(sourceQueue, Map.of()).getOrDefault(state, 0L);
    }

    @Override
    public synchronized Map<QuarantineState, Long> countActiveByState(String sourceQueue) {
        return new EnumMap<>(active.getOrDefault(sourceQueue, new EnumMap<>(QuarantineState.class)));
    }

    @Override
    public synchronized Map<QuarantineState, Long> countByState(String sourceQueue) {
        Map<QuarantineState, Long> counts = countActiveByState(sourceQueue);
        tombstones.getOrDefault(sourceQueue, Map.of()).forEach((s, n) -> counts.merge(s, n, Long::sum));
        return counts;
    }

    @Override
    public synchronized Optional<QuarantineRecord> oldestActive(QuarantineState state, String sourceQueue) {
        return inState(state, Optional.of(sourceQueue), 1).stream().findFirst();
    }

    @Override
    public synchronized List<QuarantineRecord> ofQueueSince(String sourceQueue, Instant from, int limit) {
        return records.values().stream()
                .filter(r ->
                        r.sourceQueue().equals(sourceQueue) && !r.arrivedAt().isBefore(from))
                .sorted(OLDEST_FIRST)
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized Optional<QuarantineRecord> lastOfQueueBefore(
            String sourceQueue, Instant before, Predicate<QuarantineRecord> matching) {
        return records.values().stream()
                .filter(r ->
                        r.sourceQueue().equals(sourceQueue) && r.arrivedAt().isBefore(before))
                .filter(matching)
                .max(OLDEST_FIRST);
    }

    public synchronized List<QuarantineRecord> all() {
        return new ArrayList<>(records.values());
    }

    private boolean fenceHolds(String id, Optional<LeaseToken> fence) {
        return fence.map(f -> !f.lapsed(clock.instant()) && fences.getOrDefault(id, 0L) <= f.token())
                .orElse(true);
    }

    /** A fenced write raises the record's fence to its token (it held, so it is at least the fence); others keep it. */
    private void fenced(String id, Optional<LeaseToken> fence) {
        fence.ifPresent(f -> fences.put(id, f.token()));
    }

    /** Test support: the count of records by state. */
    public synchronized Map<QuarantineState, Integer> countByState() {
        Map<QuarantineState, Integer> counts = new HashMap<>();
        records.values().forEach(r -> counts.merge(r.state(), 1, Integer::sum));
        return counts;
    }
}
