package dev.redrive.core.claim;

import java.time.Instant;

/**
 * The claim rules, as one pure decision over "what is stored" and "what is offered". Every {@link ClaimStore}
 * implementation applies these rules atomically (the in-memory fake under a lock, DynamoDB with condition
 * expressions) and interprets the record it finds with {@link #decide}.
 */
public final class ClaimRules {

    /** What to do with a claim request, given the stored record. */
    public enum Decision {
        /** Nothing stored (or only an expired record): write a fresh claim. */
        CLAIM_NEW,
        /** An earlier attempt is over (failed, lease expired, record expired): re-claim with token + 1. */
        TAKE_OVER,
        /** Completed with the same payload: a duplicate. */
        ALREADY_COMPLETED,
        /** Someone holds a live lease. */
        HELD_BY_ANOTHER,
        /** Same key, different payload, and the earlier one was applied or is being applied. */
        PAYLOAD_MISMATCH
    }

    private ClaimRules() {}

    /**
     * Decides a claim request.
     *
     * <p>A payload mismatch is only reported against a completed claim or a live lease: a failed attempt applied
     * nothing, so a corrected or upcast payload may take its place (that is what a replay after a schema fix is).
     */
    public static Decision decide(ClaimRecord existing, ClaimRequest request, Instant now) {
        if (existing == null) {
            return Decision.CLAIM_NEW;
        }
        if (existing.isExpired(now)) {
            return Decision.TAKE_OVER;
        }
        boolean samePayload =
                existing.payloadHash() == null || existing.payloadHash().equals(request.payloadHash());
        return switch (existing.status()) {
            case COMPLETED -> samePayload ? Decision.ALREADY_COMPLETED : Decision.PAYLOAD_MISMATCH;
            case IN_PROGRESS -> {
                if (existing.isLeaseExpired(now)) {
                    yield Decision.TAKE_OVER;
                }
                yield samePayload ? Decision.HELD_BY_ANOTHER : Decision.PAYLOAD_MISMATCH;
            }
            case FAILED -> Decision.TAKE_OVER;
        };
    }

    /** The record a claim writes: a fresh one, or the successor of {@code existing} carrying its failure history. */
    public static ClaimRecord claimedRecord(ClaimRecord existing, ClaimRequest request, Instant now) {
        boolean keepHistory = existing != null && !existing.isExpired(now);
        long token = existing == null ? 1 : existing.fencingToken() + 1;
        return new ClaimRecord(
                request.key(),
                ClaimStatus.IN_PROGRESS,
                token,
                request.leaseExpiresAt(),
                request.expiresAt(),
                request.payloadHash(),
                null,
                keepHistory ? existing.lastFailure() : null,
                keepHistory ? existing.failureCount() : 0,
                request.origin(),
                existing == null ? 1 : existing.version() + 1);
    }

    /** Turns a decision that did not acquire into its outcome. */
    public static ClaimOutcome rejection(Decision decision, ClaimRecord existing, ClaimRequest request) {
        return switch (decision) {
            case ALREADY_COMPLETED -> new ClaimOutcome.AlreadyCompleted(existing);
            case HELD_BY_ANOTHER -> new ClaimOutcome.HeldByAnother(existing);
            case PAYLOAD_MISMATCH -> new ClaimOutcome.PayloadMismatch(existing, request.payloadHash());
            case CLAIM_NEW, TAKE_OVER -> throw new IllegalArgumentException(decision + " acquires; it is no rejection");
        };
    }
}
