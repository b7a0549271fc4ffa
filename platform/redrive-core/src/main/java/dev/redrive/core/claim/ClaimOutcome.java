package dev.redrive.core.claim;

/** What a claim attempt decided. Exactly one of these comes back from one conditional write. */
public sealed interface ClaimOutcome {

    /**
     * The caller holds the lease now and must apply the effect, then complete or release with {@code claim}'s
     * fencing token.
     *
     * @param claim    the record as written
     * @param takeover true when an earlier attempt existed (failed, expired lease, expired record)
     */
    record Acquired(ClaimRecord claim, boolean takeover) implements ClaimOutcome {
        public long fencingToken() {
            return claim.fencingToken();
        }
    }

    /** The effect was already applied under this key: acknowledge the message, do nothing. */
    record AlreadyCompleted(ClaimRecord existing) implements ClaimOutcome {}

    /**
     * Another worker holds a live lease on this key. Never run it twice concurrently: report the message as failed
     * so it comes back after the lease.
     */
    record HeldByAnother(ClaimRecord existing) implements ClaimOutcome {}

    /**
     * The key was claimed before with a different payload. Something upstream reused a key: this is flagged
     * (PERMANENT), never silently skipped.
     */
    record PayloadMismatch(ClaimRecord existing, String offeredPayloadHash) implements ClaimOutcome {}
}
