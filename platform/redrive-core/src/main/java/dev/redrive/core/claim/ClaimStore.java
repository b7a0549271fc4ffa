package dev.redrive.core.claim;

import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;
import java.util.Optional;

/**
 * The idempotency claim port. One call to {@link #claim} is one atomic decision (on DynamoDB: one conditional
 * PutItem whose failure returns the stored item, so a duplicate costs no extra read).
 *
 * <p>{@code now} is passed in, never read from a hidden clock: tests drive leases and expiry with an injected time.
 */
public interface ClaimStore {

    /** Claims {@code request.key()} or reports why not. Never blocks waiting for another holder. */
    ClaimOutcome claim(ClaimRequest request, Instant now);

    /**
     * Marks the claim completed, if {@code fencingToken} still holds it. A worker whose lease was taken over gets
     * {@link FencedWrite#FENCED_OUT} and has changed nothing.
     *
     * @param result    a small summary of what the effect did (never the payload); may be null
     * @param expiresAt the record's new expiry, counted from the completion (a duplicate can come back for as long
     *                  after the effect as the TTL covers); null keeps the one set at the claim
     */
    FencedWrite complete(IdempotencyKey key, long fencingToken, String result, Instant expiresAt, Instant now);

    /** {@link #complete(IdempotencyKey, long, String, Instant, Instant)} keeping the expiry set at the claim. */
    default FencedWrite complete(IdempotencyKey key, long fencingToken, String result, Instant now) {
        return complete(key, fencingToken, result, null, now);
    }

    /**
     * Records a failed attempt and releases the lease so the next delivery may re-claim at once; conditional on the
     * token like {@link #complete}.
     */
    FencedWrite release(IdempotencyKey key, long fencingToken, FailureRecord failure, Instant now);

    /**
     * Records a failed attempt on a key that no lease holds: a transaction that did not commit, or a FIFO message
     * held back behind its group's failed head. Takes the next token, keeps the history (and its first failure time,
     * when earlier than {@code failure}'s), and leaves a completed claim or a live lease untouched.
     */
    FencedWrite recordFailure(ClaimRequest request, FailureRecord failure, Instant now);

    /**
     * Reads the claim as the consumer would see it: a record past its expiry is absent. Strongly consistent; used by
     * the sweeper and the replay checks, never on the consumer's hot path.
     */
    Optional<ClaimRecord> find(IdempotencyKey key, Instant now);
}
