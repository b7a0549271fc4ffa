package dev.redrive.core.claim;

/** Where a claim stands. */
public enum ClaimStatus {
    /** A worker holds the lease and may be applying the effect right now. */
    IN_PROGRESS,
    /** The effect was applied and recorded; any later delivery of the key is a duplicate. */
    COMPLETED,
    /** The last attempt failed and released its lease; the effect was not applied, the next delivery re-claims. */
    FAILED
}
