package dev.redrive.testing.sweeper;

import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A ledger that lets a test put another actor's write between a read and a save: an action registered for a record id
 * runs right before the next saves of that record (on the saving thread), then the save goes to the real ledger.
 */
public final class InterleavingLedger implements QuarantineLedger {

    private record Hook(Consumer<QuarantineRecord> action, int[] left) {}

    private final QuarantineLedger delegate;
    private final Map<String, Hook> hooks = new ConcurrentHashMap<>();

    /** A ledger that saves to {@code delegate} after running the registered actions. */
    public InterleavingLedger(QuarantineLedger delegate) {
        this.delegate = delegate;
    }

    /** Runs {@code action} (given the record about to be saved) before each of the next {@code times} saves of it. */
    public void beforeSaves(String id, int times, Consumer<QuarantineRecord> action) {
        hooks.put(id, new Hook(action, new int[] {times}));
    }

    @Override
    public Optional<QuarantineRecord> save(QuarantineRecord record, Optional<LeaseToken> fence) {
        Hook hook = hooks.get(record.id());
        if (hook != null) {
            boolean run;
            synchronized (hook) {
                run = hook.left()[0]-- > 0;
            }
            if (run) {
                hook.action().accept(record);
            } else {
                hooks.remove(record.id(), hook);
            }
        }
        return delegate.save(record, fence);
    }

    @Override
    public Optional<QuarantineRecord> find(String id) {
        return delegate.find(id);
    }

    @Override
    public boolean insertIfAbsent(QuarantineRecord record, Optional<LeaseToken> fence) {
        return delegate.insertIfAbsent(record, fence);
    }

    @Override
    public List<QuarantineRecord> inState(QuarantineState state, Optional<String> sourceQueue, int limit) {
        return delegate.inState(state, sourceQueue, limit);
    }

    @Override
    public List<QuarantineRecord> arrivedBefore(QuarantineState state, Instant cutoff, int limit) {
        return delegate.arrivedBefore(state, cutoff, limit);
    }

    @Override
    public List<QuarantineRecord> unchangedSince(QuarantineState state, Instant cutoff, int limit) {
        return delegate.unchangedSince(state, cutoff, limit);
    }

    @Override
    public List<QuarantineRecord> ofQueue(String sourceQueue, int limit) {
        return delegate.ofQueue(sourceQueue, limit);
    }

    @Override
    public long count(QuarantineState state, String sourceQueue) {
        return delegate.count(state, sourceQueue);
    }

    @Override
    public Map<QuarantineState, Long> countActiveByState(String sourceQueue) {
        return delegate.countActiveByState(sourceQueue);
    }

    @Override
    public Optional<QuarantineRecord> oldestActive(QuarantineState state, String sourceQueue) {
        return delegate.oldestActive(state, sourceQueue);
    }

    @Override
    public boolean establishCounts(String sourceQueue, java.util.function.BooleanSupplier inTime) {
        return delegate.establishCounts(sourceQueue, inTime);
    }

    @Override
    public Map<QuarantineState, Long> countByState(String sourceQueue) {
        return delegate.countByState(sourceQueue);
    }

    @Override
    public Optional<QuarantineRecord> lastOfQueueBefore(
            String sourceQueue, Instant before, java.util.function.Predicate<QuarantineRecord> matching) {
        return delegate.lastOfQueueBefore(sourceQueue, before, matching);
    }

    @Override
    public List<QuarantineRecord> ofQueueSince(String sourceQueue, Instant from, int limit) {
        return delegate.ofQueueSince(sourceQueue, from, limit);
    }
}
