package dev.redrive.core.claim;

import java.time.Instant;
import java.util.List;
import java.util.function.LongFunction;

/**
 * A claim store that can commit a claim together with the effect's own writes: claim + effect + completion in one
 * transaction. Used when the effect is a write to the same store (DynamoDB TransactWriteItems).
 *
 * @param <W> the store's write type
 */
public interface TransactionalClaimStore<W> extends ClaimStore {

    /**
     * Claims the key, applies {@code effectWrites} and completes the claim, atomically.
     *
     * @param effectWrites builds the effect's writes for the fencing token of the attempt (called once per attempt)
     * @return {@link ClaimOutcome.Acquired} with a COMPLETED record when committed; otherwise the same rejections as
     *         {@link #claim} (already completed, held by another, payload mismatch), and nothing was written
     * @throws EffectConflict when the effect's own writes were refused (their condition failed, or a concurrent
     *                        transaction touched the same items)
     */
    ClaimOutcome claimAndCommit(ClaimRequest request, LongFunction<List<W>> effectWrites, String result, Instant now);
}
