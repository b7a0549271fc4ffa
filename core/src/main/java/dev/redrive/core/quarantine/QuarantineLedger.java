package dev.redrive.core.quarantine;

import dev.redrive.core.lease.LeaseToken;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The quarantine ledger port: where dead letters live while they are triaged. Writes are optimistic (conditional on
 * the version read) and, for the sweeper, fenced by its lease: once another sweeper has taken the lease over, every
 * write carrying the old token is rejected.
 */
public interface QuarantineLedger {

    Optional<QuarantineRecord> find(String id);

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

    /** How many active records of {@code sourceQueue} are in {@code state} (tombstones excluded). */
    long count(QuarantineState state, String sourceQueue);
}
