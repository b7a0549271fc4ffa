package dev.redrive.core.quarantine;

import dev.redrive.core.lease.LeaseToken;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * The quarantine ledger port: where dead letters live while they are triaged. Writes are optimistic (conditional on
 * the version read) and, for the sweeper, fenced by its lease. A fenced write is accepted only when
 * <ul>
 *   <li>its token's lease has not lapsed by the ledger's clock ({@link LeaseToken#lapsed}: refused without a call;
 *       nobody can be granted the lease before it lapses, so until then the token is the highest there is), and</li>
 *   <li>its token is at least the highest token the record has been written with (the condition of the write itself:
 *       once a newer sweeper has written a record, no older token writes it again), and</li>
 *   <li>the record still has the version read (for an insert: there is none yet).</li>
 * </ul>
 * So once another sweeper has taken the lease over, every write carrying the old token is rejected. No lease is read
 * per write.
 */
public interface QuarantineLedger {

    Optional<QuarantineRecord> find(String id);

    /**
     * {@link #find} for several ids at once (on DynamoDB one consistent read per hundred): the records found, by id, in
     * the order given; an id without a record is left out.
     */
    default Map<String, QuarantineRecord> findAll(Collection<String> ids) {
        Map<String, QuarantineRecord> found = new LinkedHashMap<>();
        for (String id : ids) {
            find(id).ifPresent(r -> found.put(id, r));
        }
        return found;
    }

    /**
     * {@link #insertIfAbsent} for each record, under one fence, each record on its own condition (on DynamoDB, ten at
     * a time in one call).
     *
     * @return the ids written; a record that was there already, or whose fence did not hold, is left out
     */
    default Set<String> insertAllIfAbsent(List<QuarantineRecord> records, Optional<LeaseToken> fence) {
        Set<String> written = new HashSet<>();
        for (QuarantineRecord r : distinct(records)) {
            if (insertIfAbsent(r, fence)) {
                written.add(r.id());
            }
        }
        return written;
    }

    /**
     * {@link #save} for each record, under one fence, each record on its own version and fence (on DynamoDB, ten at a
     * time in one call).
     *
     * @return the records as stored, by id; a record whose version or fence did not hold is left out (nothing of it was
     *     written)
     */
    default Map<String, QuarantineRecord> saveAll(List<QuarantineRecord> records, Optional<LeaseToken> fence) {
        Map<String, QuarantineRecord> saved = new LinkedHashMap<>();
        for (QuarantineRecord r : distinct(records)) {
            save(r, fence).ifPresent(s -> saved.put(s.id(), s));
        }
        return saved;
    }

    /** {@code records}, refused when one id appears twice (two writes of one record in one call cannot both hold). */
    static List<QuarantineRecord> distinct(List<QuarantineRecord> records) {
        Set<String> ids = new HashSet<>();
        for (QuarantineRecord r : records) {
            if (!ids.add(r.id())) {
                throw new IllegalArgumentException("dead letter " + r.id() + " is written twice in one batch");
            }
        }
        return records;
    }

    /**
     * Records a new dead letter unless one with its id exists (the same dead letter seen twice is one record).
     *
     * @return true when written, false when it was already there
     */
    boolean insertIfAbsent(QuarantineRecord record, Optional<LeaseToken> fence);

    /**
     * Writes {@code record} if the stored one still has {@code record.version()}; the stored version becomes
     * {@code record.version() + 1}.
     *
     * @return the record as stored, or empty when the version or the fence did not hold (nothing was written)
     */
    Optional<QuarantineRecord> save(QuarantineRecord record, Optional<LeaseToken> fence);

    /**
     * Active records (not yet archived to the store) in {@code state}, oldest arrival first, optionally only of one
     * source queue.
     */
    List<QuarantineRecord> inState(QuarantineState state, Optional<String> sourceQueue, int limit);

    /** Active records in {@code state} that arrived before {@code cutoff}, oldest first. */
    List<QuarantineRecord> arrivedBefore(QuarantineState state, Instant cutoff, int limit);

    /**
     * Active records in {@code state} whose last state change (the latest audit entry; the arrival when there is none)
     * was before {@code cutoff}, oldest arrival first: retention counts from there, so a record a person or a returned
     * replay touched recently is kept.
     */
    List<QuarantineRecord> unchangedSince(QuarantineState state, Instant cutoff, int limit);

    /**
     * Every record of {@code sourceQueue}, in any state and tombstones included (they stay findable by queue), oldest
     * arrival first: for operators' listings over many states.
     */
    List<QuarantineRecord> ofQueue(String sourceQueue, int limit);

    /**
     * How many active records of {@code sourceQueue} are in {@code state} (tombstones excluded). An adapter keeps the
     * counts as it writes (see {@link #establishCounts}), so this costs the same whatever the ledger holds.
     */
    long count(QuarantineState state, String sourceQueue);

    /**
     * {@link #count} of every state at once: how many active records of {@code sourceQueue} are in each state
     * (tombstones excluded); a state with none is left out. On DynamoDB, one read of the queue's counts.
     */
    default Map<QuarantineState, Long> countActiveByState(String sourceQueue) {
        Map<QuarantineState, Long> counts = new EnumMap<>(QuarantineState.class);
        for (QuarantineState state : QuarantineState.values()) {
            long n = count(state, sourceQueue);
            if (n != 0) {
                counts.put(state, n);
            }
        }
        return counts;
    }

    /**
     * The active record of {@code sourceQueue} in {@code state} that arrived first (of two at once, the lower id), read
     * without counting or listing the others (on DynamoDB, {@code byState} oldest first in pages that start at one
     * item).
     */
    default Optional<QuarantineRecord> oldestActive(QuarantineState state, String sourceQueue) {
        return inState(state, Optional.of(sourceQueue), 1).stream().findFirst();
    }

    /**
     * Makes {@code sourceQueue}'s counts whole: counts the records written before this ledger kept counts (an existing
     * deployment's), each one once, then marks the queue's counts complete. Every write since counts keeps them in the
     * same transaction as the record, so this is a one-off; it is idempotent, safe beside concurrent writers, and stops
     * when {@code inTime} says so (the next call goes on where the records still uncounted are).
     *
     * @return true when the queue's counts are complete (at once, after the first time), false when {@code inTime}
     *     stopped it first
     */
    default boolean establishCounts(String sourceQueue, BooleanSupplier inTime) {
        return true;
    }

    /**
     * How many records of {@code sourceQueue} are in each state, tombstones included (counted under the state they
     * keep), as {@link #ofQueue} lists them; a state with none is left out. This default reads every record back; an
     * adapter reads no more of them than it must (on DynamoDB, only their state).
     */
    default Map<QuarantineState, Long> countByState(String sourceQueue) {
        Map<QuarantineState, Long> counts = new EnumMap<>(QuarantineState.class);
        for (QuarantineRecord r : ofQueue(sourceQueue, Integer.MAX_VALUE)) {
            counts.merge(r.state(), 1L, Long::sum);
        }
        return counts;
    }

    /**
     * The records of {@code sourceQueue} that arrived at or after {@code from}, in any state and tombstones included,
     * oldest arrival first: {@link #ofQueue} cut at an arrival, so that a recent period costs what it holds, not the
     * queue's whole history (on DynamoDB, a range of the by-queue index's sort key).
     */
    default List<QuarantineRecord> ofQueueSince(String sourceQueue, Instant from, int limit) {
        return ofQueue(sourceQueue, Integer.MAX_VALUE).stream()
                .filter(r -> !r.arrivedAt().isBefore(from))
                .limit(limit)
                .toList();
    }

    /**
     * The record of {@code sourceQueue} that arrived last before {@code before} (of two at once, the higher id) among
     * those {@code matching}, in any state, tombstones included: what was in effect when a period starts, read from the
     * period's start backwards (on DynamoDB, {@code byQueue} newest first, page by page until one matches).
     */
    default Optional<QuarantineRecord> lastOfQueueBefore(
            String sourceQueue, Instant before, Predicate<QuarantineRecord> matching) {
        return ofQueue(sourceQueue, Integer.MAX_VALUE).stream()
                .filter(r -> r.arrivedAt().isBefore(before) && matching.test(r))
                .max(OLDEST_FIRST);
    }

    /** Oldest arrival first; of two that arrived at once, the lower id first. */
    Comparator<QuarantineRecord> OLDEST_FIRST =
            Comparator.comparing(QuarantineRecord::arrivedAt).thenComparing(QuarantineRecord::id);
}
