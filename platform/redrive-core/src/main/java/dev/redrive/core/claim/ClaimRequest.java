package dev.redrive.core.claim;

import java.time.Instant;
import java.util.Objects;

/**
 * A request to claim a key.
 *
 * @param key            the key
 * @param payloadHash    fingerprint of this delivery's payload (see {@link PayloadFingerprint})
 * @param leaseExpiresAt until when the claimant may work; derive it with {@link LeasePolicy}
 * @param expiresAt      when the record stops counting; must cover the longest time a replay can come back
 * @param origin         which queue and message this delivery is
 */
public record ClaimRequest(
        IdempotencyKey key, String payloadHash, Instant leaseExpiresAt, Instant expiresAt, MessageOrigin origin) {

    public ClaimRequest {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(payloadHash, "payloadHash");
        Objects.requireNonNull(leaseExpiresAt, "leaseExpiresAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(origin, "origin");
        if (!expiresAt.isAfter(leaseExpiresAt)) {
            throw new IllegalArgumentException("the record must outlive its lease: expiresAt " + expiresAt
                    + " is not after leaseExpiresAt " + leaseExpiresAt);
        }
    }
}
