package dev.redrive.core.replay;

import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The idempotency gate built from the consumers themselves: the consumer's own parser finds the key, the claim store
 * the consumer claims in says whether it was applied. No second implementation that could drift from the first.
 */
public final class ClaimLookupIdempotencyGate implements IdempotencyGate {

    private final Map<String, ? extends IdempotentConsumer<?>> consumers;
    private final ClaimStore claims;

    public ClaimLookupIdempotencyGate(Map<String, ? extends IdempotentConsumer<?>> consumers, ClaimStore claims) {
        this.consumers = Map.copyOf(consumers);
        this.claims = claims;
    }

    @Override
    public Verdict check(String consumerName, String body, Instant now) {
        IdempotentConsumer<?> consumer = consumers.get(consumerName);
        if (consumer == null) {
            return new Unsafe("no consumer named '" + consumerName + "' is deployed with the sweeper");
        }
        ParsedMessage<?> parsed;
        try {
            parsed = consumer.parse(new IncomingMessage("replay-check", null, body, Map.of(), 1, "", null));
        } catch (RuntimeException e) {
            return new Unsafe("the consumer cannot read the payload: " + e.getMessage());
        }
        IdempotencyKey key = new IdempotencyKey(consumer.name(), parsed.producerKey());
        Optional<ClaimRecord> claim = claims.find(key, now);
        if (claim.isEmpty()) {
            return new NotApplied(key.value());
        }
        ClaimRecord c = claim.get();
        String hash = PayloadFingerprint.of(parsed.canonicalPayload());
        if (c.status() == ClaimStatus.COMPLETED) {
            if (c.payloadHash() != null && !c.payloadHash().equals(hash)) {
                return new Unsafe("key " + key + " was applied with a different payload; replaying this one would "
                        + "be skipped as a duplicate or flagged as a reused key");
            }
            return new AlreadyApplied(key.value(), c.fencingToken());
        }
        if (c.status() == ClaimStatus.IN_PROGRESS && !c.isLeaseExpired(now)) {
            return new InProgress(key.value(), c.leaseExpiresAt());
        }
        return new NotApplied(key.value());
    }
}
