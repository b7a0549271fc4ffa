package dev.redrive.testing.claim;

import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.ClaimRules;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.EffectConflict;
import dev.redrive.core.claim.FencedWrite;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.TransactionalClaimStore;
import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The in-memory fake of the claim store: the same rules as DynamoDB, made atomic with one lock. For fast unit tests of
 * the core and as the reference the contract suite checks every adapter against.
 */
public final class InMemoryClaimStore implements TransactionalClaimStore<InMemoryClaimStore.Write> {

    /** A write of a transactional effect, for the fake: checked and applied under the store's lock. */
    public interface Write {
        /** Whether the write's own condition holds; a false one cancels the whole transaction. */
        default boolean conditionHolds() {
            return true;
        }

        void apply();
    }

    private final Map<String, ClaimRecord> records = new HashMap<>();
    /** Test support: where the next transaction meets a concurrent one (null: nowhere). */
    private Boolean conflictOnClaim;

    @Override
    public synchronized ClaimOutcome claim(ClaimRequest request, Instant now) {
        ClaimRecord existing = records.get(request.key().value());
        ClaimRules.Decision decision = ClaimRules.decide(existing, request, now);
        if (decision == ClaimRules.Decision.CLAIM_NEW || decision == ClaimRules.Decision.TAKE_OVER) {
            ClaimRecord claimed = ClaimRules.claimedRecord(existing, request, now);
            records.put(request.key().value(), claimed);
            return new ClaimOutcome.Acquired(claimed, existing != null);
        }
        return ClaimRules.rejection(decision, existing, request);
    }

    @Override
    public synchronized FencedWrite complete(
            IdempotencyKey key, long fencingToken, String result, Instant expiresAt, Instant now) {
        ClaimRecord r = records.get(key.value());
        if (!heldBy(r, fencingToken)) {
            return FencedWrite.FENCED_OUT;
        }
        records.put(key.value(), r.completed(result, expiresAt).withVersion(r.version() + 1));
        return FencedWrite.APPLIED;
    }

    @Override
    public synchronized FencedWrite release(IdempotencyKey key, long fencingToken, FailureRecord failure, Instant now) {
        ClaimRecord r = records.get(key.value());
        if (!heldBy(r, fencingToken)) {
            return FencedWrite.FENCED_OUT;
        }
        records.put(key.value(), r.failed(failure, now).withVersion(r.version() + 1));
        return FencedWrite.APPLIED;
    }

    @Override
    public synchronized Optional<ClaimRecord> find(IdempotencyKey key, Instant now) {
        ClaimRecord r = records.get(key.value());
        return r == null || r.isExpired(now) ? Optional.empty() : Optional.of(r);
    }

    @Override
    public synchronized ClaimOutcome claimAndCommit(
            ClaimRequest request, LongFunction<List<Write>> effectWrites, String result, Instant now) {
        Boolean conflict = conflictOnClaim;
        conflictOnClaim = null;
        if (Boolean.TRUE.equals(conflict)) {
            throw new EffectConflict(
                    EffectConflict.Kind.CONFLICT, "a concurrent transaction held the claim; nothing was written", null);
        }
        ClaimRecord existing = records.get(request.key().value());
        ClaimRules.Decision decision = ClaimRules.decide(existing, request, now);
        if (decision != ClaimRules.Decision.CLAIM_NEW && decision != ClaimRules.Decision.TAKE_OVER) {
            return ClaimRules.rejection(decision, existing, request);
        }
        if (conflict != null) {
            throw new EffectConflict(
                    EffectConflict.Kind.CONFLICT,
                    "a concurrent transaction held an item of the effect; nothing was written",
                    null);
        }
        ClaimRecord claimed = ClaimRules.claimedRecord(existing, request, now);
        List<Write> writes = effectWrites.apply(claimed.fencingToken());
        for (Write w : writes) {
            if (!w.conditionHolds()) {
                throw new EffectConflict(
                        EffectConflict.Kind.CONDITION_FAILED,
                        "a condition of the effect's writes failed; nothing was written",
                        null);
            }
        }
        writes.forEach(Write::apply);
        ClaimRecord completed = claimed.completed(result);
        records.put(request.key().value(), completed);
        return new ClaimOutcome.Acquired(completed, existing != null);
    }

    @Override
    public synchronized FencedWrite recordFailure(ClaimRequest request, FailureRecord failure, Instant now) {
        ClaimRecord existing = records.get(request.key().value());
        if (existing != null && !existing.isExpired(now)) {
            boolean live = existing.status() == ClaimStatus.IN_PROGRESS && !existing.isLeaseExpired(now);
            if (existing.status() == ClaimStatus.COMPLETED || live) {
                return FencedWrite.FENCED_OUT;
            }
        }
        ClaimRecord claimed = ClaimRules.claimedRecord(existing, request, now);
        records.put(request.key().value(), claimed.failed(failure, now));
        return FencedWrite.APPLIED;
    }

    /**
     * Test support: the next {@link #claimAndCommit} meets a concurrent transaction, on the claim item (it decides
     * nothing: CONFLICT) or on an item of the effect (the claim still decides first: a duplicate stays a duplicate).
     */
    public synchronized void conflictOnNextTransaction(boolean onClaim) {
        conflictOnClaim = onClaim;
    }

    /** Test support: overwrite a record as stored (for instance one written by an older version). */
    public synchronized void put(ClaimRecord record) {
        records.put(record.key().value(), record);
    }

    public synchronized int size() {
        return records.size();
    }

    private static boolean heldBy(ClaimRecord r, long fencingToken) {
        return r != null && r.status() == ClaimStatus.IN_PROGRESS && r.fencingToken() == fencingToken;
    }
}
