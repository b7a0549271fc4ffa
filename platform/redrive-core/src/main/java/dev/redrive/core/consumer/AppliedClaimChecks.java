package dev.redrive.core.consumer;

import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.core.payload.ClaimChecks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the consumer knows of a claim check without its payload. A claim is keyed on the producer key, which is in the
 * payload; {@link ClaimCheckCleanup#AFTER_APPLY} deletes the payload once its message is applied, so a redelivery of
 * that message (SQS's, or its whole batch coming back) has a pointer and nothing to read the key from. What it still
 * has is the pointer, the same in every copy of the message. So before the payload is deleted, the claim store gets a
 * completed record under the pointer's location ({@link ClaimChecks#locationOf}), keyed {@code
 * <consumer>#claim-check:<SHA-256 of the location>}, whose result is the key the message was applied under; a message
 * whose payload is gone is looked up there before it is dead-lettered, and one found is a duplicate of that key. The
 * record expires with the claims (the same TTL), and costs a claim and a completion per payload deleted.
 */
final class AppliedClaimChecks {

    /** The start of the producer key of such a record; what follows is the SHA-256 of the pointer's location. */
    static final String KEY_PREFIX = "claim-check:";

    private final ClaimStore claims;
    private final LeasePolicy leases;
    private final ClaimChecks checks;
    private final Clock clock;

    AppliedClaimChecks(ClaimStore claims, LeasePolicy leases, ClaimChecks checks, Clock clock) {
        this.claims = claims;
        this.leases = leases;
        this.checks = checks;
        this.clock = clock;
    }

    /**
     * Records that {@code message}, a claim check, was applied under {@code appliedKey}.
     *
     * @return whether the record is there now (written, or written before): only then may its payload be deleted
     * @throws RuntimeException when the claim store fails
     */
    boolean record(String consumer, IncomingMessage message, String appliedKey, Duration remaining) {
        Optional<String> location = checks.locationOf(message.body(), message.attributes());
        if (location.isEmpty()) {
            return false;
        }
        IdempotencyKey key = keyOf(consumer, location.get());
        Instant now = clock.instant();
        ClaimRequest request = leases.request(
                key,
                PayloadFingerprint.of(location.get()),
                new MessageOrigin(message.sourceQueue(), message.messageId()),
                now,
                remaining);
        ClaimOutcome outcome = claims.claim(request, now);
        if (outcome instanceof ClaimOutcome.AlreadyCompleted done) {
            return appliedUnder(done.existing(), consumer, location.get()).isPresent();
        }
        if (!(outcome instanceof ClaimOutcome.Acquired acquired)) {
            return false;
        }
        return claims.complete(key, acquired.fencingToken(), appliedKey, leases.recordExpiry(now), now)
                .applied();
    }

    /**
     * The key {@code message}, a claim check whose payload is gone, was applied under, if a record says so.
     *
     * @throws RuntimeException when the claim store cannot be read
     */
    Optional<String> appliedKey(String consumer, IncomingMessage message) {
        Optional<String> location = checks.locationOf(message.body(), message.attributes());
        if (location.isEmpty()) {
            return Optional.empty();
        }
        return claims.find(keyOf(consumer, location.get()), clock.instant())
                .flatMap(r -> appliedUnder(r, consumer, location.get()));
    }

    /**
     * The key a record says its message was applied under: a completed record written for this very location (its
     * fingerprint is the location's) whose result is a key of this consumer; anything else (a producer key that
     * happens to look like this one's) says nothing.
     */
    private static Optional<String> appliedUnder(ClaimRecord r, String consumer, String location) {
        if (r.status() != ClaimStatus.COMPLETED
                || !PayloadFingerprint.of(location).equals(r.payloadHash())) {
            return Optional.empty();
        }
        return IdempotencyKey.tryParse(r.result())
                .filter(k -> k.consumer().equals(consumer))
                .map(IdempotencyKey::value);
    }

    private static IdempotencyKey keyOf(String consumer, String location) {
        return new IdempotencyKey(consumer, KEY_PREFIX + PayloadFingerprint.of(location));
    }
}
