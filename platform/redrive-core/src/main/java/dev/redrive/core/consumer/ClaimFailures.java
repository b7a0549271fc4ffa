package dev.redrive.core.consumer;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.RandomSource;
import dev.redrive.core.breaker.CircuitBreaker;
import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a failed or rejected attempt of {@link MessageProcessor} leaves behind, and where its message goes: the failure
 * recorded on the claim (released under its fencing token, or recorded without holding it), then a retry with full
 * jitter, a deferral, or the DLQ with the failure's reason. It touches the claim store only; the effect is the
 * processor's.
 */
final class ClaimFailures {

    private final ClaimStore claims;
    private final LeasePolicy leases;
    private final FullJitterBackoff backoff;
    private final RandomSource random;
    private final Clock clock;
    private final ProcessingListener listener;
    private final EffectBreakers breakers;
    private final String buildVersion;

    /**
     * @param buildVersion the consumer's build version, recorded with every failure; empty when unknown to the caller
     */
    ClaimFailures(
            ClaimStore claims,
            LeasePolicy leases,
            FullJitterBackoff backoff,
            RandomSource random,
            Clock clock,
            ProcessingListener listener,
            EffectBreakers breakers,
            String buildVersion) {
        this.claims = claims;
        this.leases = leases;
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.random = Objects.requireNonNull(random, "random");
        this.clock = clock;
        this.listener = listener;
        this.breakers = breakers;
        this.buildVersion = buildVersion == null ? "" : buildVersion;
    }

    /**
     * The effect happened but its completion could not be recorded. The message is reported failed: the next delivery
     * re-claims after the lease, and the downstream's idempotency key makes the effect a no-op. Always a retry, whatever
     * the exception: the message must come back to find its effect applied.
     */
    MessageOutcome completionNotRecorded(
            IdempotentConsumer<?> consumer, IdempotencyKey key, IncomingMessage message, RuntimeException error) {
        listener.completionFailed(key, error);
        Classification c = consumer.classifier().classify(error);
        return new MessageOutcome.RetryLater(
                key.value(),
                new Classification(FailureClass.TRANSIENT, c.errorType(), c.reason(), MessageProcessor.CLAIM_STORE),
                backoff.delaySeconds(message.receiveCount(), random));
    }

    MessageOutcome rejected(ClaimOutcome outcome, ClaimRequest request, IncomingMessage message) {
        String key = request.key().value();
        if (outcome instanceof ClaimOutcome.AlreadyCompleted) {
            return new MessageOutcome.Duplicate(key);
        }
        if (outcome instanceof ClaimOutcome.HeldByAnother held) {
            Instant leaseEnd = held.existing().leaseExpiresAt();
            long untilLeaseEnd = Math.max(1, (Duration.between(now(), leaseEnd).toMillis() + 999) / 1000);
            int backoffDelay = Math.max(1, backoff.delaySeconds(message.receiveCount(), random));
            return new MessageOutcome.Deferred(key, leaseEnd, (int) Math.min(untilLeaseEnd, backoffDelay));
        }
        if (outcome instanceof ClaimOutcome.PayloadMismatch mismatch) {
            return deadLetter(
                    request.key(),
                    null,
                    Classification.of(
                            FailureClass.PERMANENT,
                            "PayloadMismatch",
                            "idempotency key " + key + " was first claimed with payload "
                                    + abbreviate(mismatch.existing().payloadHash()) + " but this delivery carries "
                                    + abbreviate(request.payloadHash())
                                    + "; the producer reused a key for different content"),
                    message,
                    now());
        }
        throw new IllegalStateException("not a rejection: " + outcome);
    }

    MessageOutcome failedUnderClaim(
            IdempotentConsumer<?> consumer, ClaimRecord claim, IncomingMessage message, Throwable error) {
        Instant now = now();
        Classification c = consumer.classifier().classify(error);
        FailureRecord failure = FailureRecord.next(
                claim.lastFailure(), c, message.receiveCount(), now, message.sourceQueue(), buildVersion);
        MessageOutcome superseded = release(claim, failure, now);
        return superseded != null ? superseded : routeFailure(claim.key(), failure, message);
    }

    /**
     * The dependency's breaker refused the call: the claim is released with a TRANSIENT {@value MessageProcessor#CIRCUIT_OPEN} failure
     * of that dependency (the sweeper's evidence, should the message reach the DLQ), and the message is deferred.
     */
    MessageOutcome refusedByBreaker(ClaimRecord claim, IncomingMessage message, CircuitBreaker.Permit refused) {
        Instant now = now();
        String dependency = breakers.dependency(claim.key().consumer());
        int delay = breakers.deferralSeconds(claim.key().consumer(), refused, message.receiveCount());
        Classification c = new Classification(
                FailureClass.TRANSIENT,
                MessageProcessor.CIRCUIT_OPEN,
                "the circuit breaker of " + dependency + " is open: not called, deferred " + delay + " s",
                dependency);
        FailureRecord failure = FailureRecord.next(
                claim.lastFailure(),
                c,
                message.receiveCount(),
                failedAt(refused, claim, now),
                message.sourceQueue(),
                buildVersion);
        MessageOutcome superseded = release(claim, failure, now);
        return superseded != null
                ? superseded
                : new MessageOutcome.RefusedByBreaker(claim.key().value(), dependency, delay);
    }

    /**
     * When a refusal's failure happened. A message's first failure that is a refusal is dated when it was refused: the
     * dependency was failing then, as far as anyone knows, and a maintenance window opened mid-outage (after the breaker
     * opened) covers it. A message refused again keeps the date of its earlier failure in this outage (its first
     * refusal, or its own failure), or the breaker's opening if that is later (an earlier failure of a former outage),
     * so a message refused inside its dependency's window and again after the window closed, before the breaker could
     * probe, still has its failures inside the window and the window's auto-replay takes it (dated at every refusal, the
     * incident scenario left one such dead letter to a person; ada0c5c). A message refused only after a window closed
     * is not that window's: its failures are dated after it.
     */
    private static Instant failedAt(CircuitBreaker.Permit refused, ClaimRecord claim, Instant now) {
        FailureRecord previous = claim.lastFailure();
        if (previous == null || previous.lastFailedAt().isAfter(now)) {
            return now;
        }
        Instant opened = refused.openedAt();
        return opened != null && opened.isAfter(previous.lastFailedAt()) && !opened.isAfter(now)
                ? opened
                : previous.lastFailedAt();
    }

    /** Releases a failed claim with its failure; a Superseded outcome when another token took it over, else null. */
    private MessageOutcome release(ClaimRecord claim, FailureRecord failure, Instant now) {
        try {
            if (!claims.release(claim.key(), claim.fencingToken(), failure, now).applied()) {
                // Another worker took the claim over meanwhile: the message is its to settle, not this stale one's
                // (which must not dead-letter what the holder may still apply).
                listener.releaseFenced(claim.key(), claim.fencingToken());
                return new MessageOutcome.Superseded(claim.key().value(), claim.fencingToken());
            }
        } catch (RuntimeException releaseError) {
            // The lease expires on its own; the failure is still reported on the message.
            listener.releaseFailed(claim.key(), releaseError);
        }
        return null;
    }

    MessageOutcome failedWithoutClaim(
            IdempotentConsumer<?> consumer,
            ClaimRequest request,
            IncomingMessage message,
            Throwable error,
            boolean record,
            String dependency) {
        Instant now = now();
        Classification c = consumer.classifier().classify(error);
        if (dependency != null) {
            c = c.withDependency(dependency);
        }
        FailureRecord failure = FailureRecord.next(
                previousFailure(request.key(), now),
                c,
                message.receiveCount(),
                now,
                message.sourceQueue(),
                buildVersion);
        if (record) {
            try {
                claims.recordFailure(request, failure, now);
            } catch (RuntimeException recordError) {
                listener.releaseFailed(request.key(), recordError);
            }
        }
        return routeFailure(request.key(), failure, message);
    }

    /**
     * The failure the claim recorded before this attempt, so that the first failure time survives attempts that never
     * held the claim (a transaction that did not commit, a claim store that refused): one consistent read, on failure
     * paths only. Null when there is none or the store cannot be read either.
     */
    /**
     * Records on a FIFO message's claim that it was held back behind its group's failed head, so that if it follows
     * the head into the dead-letter queue (its receive count climbs with the head's, though it never ran), the sweeper
     * finds it waiting behind its head, never a POISON "no failure recorded". The classification is the head's
     * class and dependency under its own error type {@value MessageProcessor#WAITING_BEHIND_GROUP_HEAD}, so it is replayed in the same
     * window as its head. A member that cannot be read records nothing: its own failure shows once it runs.
     *
     * @param why the head's failure: class, dependency, and what happened to it
     */
    <E> void recordWaiting(IdempotentConsumer<E> consumer, IncomingMessage member, Classification why) {
        ParsedMessage<E> parsed;
        IdempotencyKey key;
        try {
            parsed = consumer.parse(member);
            key = new IdempotencyKey(consumer.name(), parsed.producerKey());
        } catch (RuntimeException unreadable) {
            return;
        }
        Instant now = now();
        ClaimRequest request = leases.request(
                key,
                PayloadFingerprint.of(parsed.canonicalPayload()),
                new MessageOrigin(member.sourceQueue(), member.messageId()),
                now,
                Duration.ZERO);
        try {
            claims.recordFailure(
                    request,
                    FailureRecord.next(null, why, member.receiveCount(), now, member.sourceQueue(), buildVersion),
                    now);
        } catch (RuntimeException e) {
            listener.releaseFailed(key, e);
        }
    }

    private FailureRecord previousFailure(IdempotencyKey key, Instant now) {
        try {
            return claims.find(key, now).map(ClaimRecord::lastFailure).orElse(null);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    private MessageOutcome routeFailure(IdempotencyKey key, FailureRecord failure, IncomingMessage message) {
        if (failure.failureClass().retryable()) {
            return new MessageOutcome.RetryLater(
                    key.value(), failure.classification(), backoff.delaySeconds(message.receiveCount(), random));
        }
        return new MessageOutcome.DeadLettered(key.value(), failure);
    }

    MessageOutcome deadLetter(
            IdempotencyKey key, FailureRecord previous, Classification c, IncomingMessage message, Instant now) {
        FailureRecord failure =
                FailureRecord.next(previous, c, message.receiveCount(), now, message.sourceQueue(), buildVersion);
        return new MessageOutcome.DeadLettered(key == null ? null : key.value(), failure);
    }

    private static String abbreviate(String hash) {
        return hash == null ? "?" : hash.substring(0, Math.min(12, hash.length()));
    }

    private Instant now() {
        return clock.instant();
    }
}
