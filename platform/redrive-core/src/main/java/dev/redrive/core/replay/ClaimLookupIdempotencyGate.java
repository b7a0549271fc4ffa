package dev.redrive.core.replay;

import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimRetention;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.consumer.ParsedMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The idempotency gate built from the consumers' key readers: the consumer's own parser (an
 * {@link dev.redrive.core.consumer.IdempotentConsumer} is a {@link KeyReader}) or a reader built from the consumer's
 * declared event contract finds the key, the claim store the consumer claims in says whether it was applied. The claim
 * key is {@code <consumer>#<producer key>} with the consumer's name as the map's key, and the fingerprint is of the
 * reader's canonical payload: the one rule the consumer claims by, so nothing can drift from it.
 *
 * <p>No claim means "not applied" only while a claim, had one been written, would still count: claims expire (their
 * TTL), and a replay later than the {@linkplain ClaimRetention#claimHorizonAfterArrival claim horizon} after the dead
 * letter arrived that finds none is refused as unsafe, never sent as "not applied" (it may have been applied, with
 * its claim gone since).
 */
public final class ClaimLookupIdempotencyGate implements IdempotencyGate {

    /**
     * The claim horizon when none is given: the default 35-day TTL less SQS's longest source and dead-letter
     * retention (14 days each), safe whatever the queues keep.
     */
    public static final Duration DEFAULT_CLAIM_HORIZON = Duration.ofDays(7);

    private final Map<String, ? extends KeyReader> consumers;
    private final ClaimStore claims;
    private final Duration claimHorizon;

    /** A gate with the {@link #DEFAULT_CLAIM_HORIZON}. */
    public ClaimLookupIdempotencyGate(Map<String, ? extends KeyReader> consumers, ClaimStore claims) {
        this(consumers, claims, DEFAULT_CLAIM_HORIZON);
    }

    /**
     * @param claimHorizon how long after a dead letter arrived its claim still counts
     *                     ({@link ClaimRetention#claimHorizonAfterArrival})
     */
    public ClaimLookupIdempotencyGate(
            Map<String, ? extends KeyReader> consumers, ClaimStore claims, Duration claimHorizon) {
        this.consumers = Map.copyOf(consumers);
        this.claims = claims;
        this.claimHorizon = claimHorizon;
    }

    @Override
    public Verdict check(String consumerName, String body, Instant deadLetteredAt, Instant now) {
        return check(consumerName, body, Map.of(), deadLetteredAt, now);
    }

    @Override
    public Verdict check(
            String consumerName, String body, Map<String, String> attributes, Instant deadLetteredAt, Instant now) {
        Verdict verdict = lookup(consumerName, body, attributes, now);
        if (verdict instanceof NotApplied notApplied
                && deadLetteredAt != null
                && !now.isBefore(deadLetteredAt.plus(claimHorizon))
                && claims.find(IdempotencyKey.parse(notApplied.key()), now).isEmpty()) {
            return new Unsafe("the claim of " + notApplied.key() + " may have expired: the dead letter arrived "
                    + Duration.between(deadLetteredAt, now).toDays() + " day(s) ago and claims are only known to "
                    + "count for " + claimHorizon.toDays() + " day(s) after arrival, so whether it was applied cannot "
                    + "be told; check the downstream, then archive it or send it by hand");
        }
        return verdict;
    }

    @Override
    public Verdict check(String consumerName, String body, Instant now) {
        return lookup(consumerName, body, Map.of(), now);
    }

    /** The key the consumer's reader finds, even in a payload of an older schema version ({@link KeyReader#producerKey}). */
    @Override
    public Optional<String> keyOf(String consumerName, String body, Map<String, String> attributes) {
        KeyReader consumer = consumers.get(consumerName);
        if (consumer == null || body == null) {
            return Optional.empty();
        }
        return consumer.producerKey(new IncomingMessage("replay-check", null, body, attributes, 1, "", null))
                .map(producerKey -> new IdempotencyKey(consumerName, producerKey).value());
    }

    private Verdict lookup(String consumerName, String body, Map<String, String> attributes, Instant now) {
        KeyReader consumer = consumers.get(consumerName);
        if (consumer == null) {
            return new Unsafe("no consumer named '" + consumerName + "' is deployed with the sweeper (known: "
                    + String.join(", ", new java.util.TreeSet<>(consumers.keySet())) + ")");
        }
        ParsedMessage<?> parsed;
        try {
            parsed = consumer.parse(new IncomingMessage("replay-check", null, body, attributes, 1, "", null));
        } catch (RuntimeException e) {
            return new Unsafe("the consumer cannot read the payload: " + e.getMessage());
        }
        IdempotencyKey key = new IdempotencyKey(consumerName, parsed.producerKey());
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
