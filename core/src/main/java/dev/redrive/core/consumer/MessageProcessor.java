package dev.redrive.core.consumer;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.RandomSource;
import dev.redrive.core.breaker.CircuitBreaker;
import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.claim.FencedWrite;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.claim.TransactionalClaimStore;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.ClassifiedException;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs one message through the rules: parse, claim, effect, complete; or classify the failure and decide where the
 * message goes. The claim always comes first, before any work and before any retry bookkeeping.
 *
 * <p>It never throws for a message: every failure becomes a {@link MessageOutcome}.
 */
public final class MessageProcessor {

    /** The dependency name failures of the claim store itself are recorded under. */
    public static final String CLAIM_STORE = "claim-store";

    /** The error type of a FIFO message held back behind its group's failed head. */
    public static final String WAITING_BEHIND_GROUP_HEAD = "WaitingBehindGroupHead";

    /** The error type of a message whose producer key is blank, too long or holds a control character. */
    public static final String INVALID_PRODUCER_KEY = "InvalidProducerKey";

    /** The error type recorded on a message that its dependency's open circuit breaker refused. */
    public static final String CIRCUIT_OPEN = "CircuitOpen";

    private final ClaimStore claims;
    private final LeasePolicy leases;
    private final FullJitterBackoff backoff;
    private final RandomSource random;
    private final Clock clock;
    private final ProcessingListener listener;
    private final EffectBreakers breakers;

    public MessageProcessor(
            ClaimStore claims,
            LeasePolicy leases,
            FullJitterBackoff backoff,
            RandomSource random,
            Clock clock,
            ProcessingListener listener) {
        this(claims, leases, backoff, random, clock, listener, EffectBreakers.NONE);
    }

    /**
     * @param breakers the circuit breakers asked before an external effect calls its dependency
     */
    public MessageProcessor(
            ClaimStore claims,
            LeasePolicy leases,
            FullJitterBackoff backoff,
            RandomSource random,
            Clock clock,
            ProcessingListener listener,
            EffectBreakers breakers) {
        this.breakers = Objects.requireNonNull(breakers, "breakers");
        this.claims = Objects.requireNonNull(claims, "claims");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.random = Objects.requireNonNull(random, "random");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.listener = listener == null ? ProcessingListener.NONE : listener;
    }

    /**
     * Processes {@code message} for {@code consumer}.
     *
     * @param remaining how much of the invocation is left, read when the claim is made (sizes the lease)
     */
    public <E> MessageOutcome process(
            IdempotentConsumer<E> consumer, IncomingMessage message, Supplier<Duration> remaining) {
        ParsedMessage<E> parsed;
        try {
            parsed = consumer.parse(message);
        } catch (RuntimeException e) {
            // Cannot be read: no claim is possible. Dead-letter it with the reason. An exception that does not say what
            // it is gets its type named, never its message (a parser's message quotes the payload).
            Classification c = e instanceof ClassifiedException
                    ? consumer.classifier().classify(e)
                    : Classification.of(
                            FailureClass.SCHEMA,
                            "UnreadableMessage",
                            "the consumer's parser failed with " + e.getClass().getSimpleName());
            if (c.failureClass() == FailureClass.TRANSIENT) {
                c = Classification.of(FailureClass.SCHEMA, c.errorType(), c.reason());
            }
            return deadLetter(null, null, c, message, now());
        }
        IdempotencyKey key;
        try {
            key = new IdempotencyKey(consumer.name(), parsed.producerKey());
        } catch (RuntimeException e) {
            // A key that could break a DynamoDB key, a header or a log line is no key: nothing is claimed under it.
            return deadLetter(
                    null,
                    null,
                    Classification.of(
                            FailureClass.SCHEMA,
                            INVALID_PRODUCER_KEY,
                            parsed.producerKey() == null ? "the message has no producer key" : e.getMessage()),
                    message,
                    now());
        }
        String payloadHash = PayloadFingerprint.of(parsed.canonicalPayload());
        MessageOrigin origin = new MessageOrigin(message.sourceQueue(), message.messageId());
        ClaimRequest request = leases.request(key, payloadHash, origin, now(), remaining.get());

        return consumer.match(new IdempotentConsumer.Cases<E, MessageOutcome>() {
            @Override
            public MessageOutcome external(ExternalEffectConsumer<E> external) {
                return processExternal(external, parsed, message, request);
            }

            @Override
            public <W> MessageOutcome transactional(TransactionalEffectConsumer<E, W> transactional) {
                return processTransactional(transactional, parsed, message, request);
            }
        });
    }

    private <E> MessageOutcome processExternal(
            ExternalEffectConsumer<E> consumer,
            ParsedMessage<E> parsed,
            IncomingMessage message,
            ClaimRequest request) {
        ClaimOutcome outcome;
        try {
            outcome = claims.claim(request, now());
        } catch (RuntimeException e) {
            return failedWithoutClaim(consumer, request, message, e, false, CLAIM_STORE);
        }
        if (!(outcome instanceof ClaimOutcome.Acquired acquired)) {
            return rejected(outcome, request, message);
        }
        long token = acquired.fencingToken();
        Instant deadline = leases.effectDeadline(acquired.claim().leaseExpiresAt());
        EffectContext context =
                new EffectContext(request.key(), token, message.receiveCount(), message.messageId(), deadline, clock);
        if (!now().isBefore(deadline)) {
            // Claimed too late to start anything (a slow claim, a frozen worker): the effect never starts.
            return failedUnderClaim(
                    consumer, acquired.claim(), message, new EffectDeadlinePassed("the effect", deadline, null));
        }
        // The breaker is asked after the claim (a duplicate is acknowledged, not deferred) and before any call.
        CircuitBreaker.Permit permit = breakers.admit(consumer.name(), now());
        if (permit != null && !permit.calls()) {
            return refusedByBreaker(acquired.claim(), message, permit);
        }
        long started = System.nanoTime();
        String result;
        try {
            result = consumer.apply(parsed.event(), context);
        } catch (Exception | LinkageError | AssertionError e) {
            listener.effectFinished(consumer.name(), Duration.ofNanos(System.nanoTime() - started), false);
            breakers.settle(consumer.name(), permit, consumer.classifier().classify(e), now());
            return failedUnderClaim(consumer, acquired.claim(), message, e);
        }
        listener.effectFinished(consumer.name(), Duration.ofNanos(System.nanoTime() - started), true);
        breakers.settle(consumer.name(), permit, null, now());
        FencedWrite completion;
        try {
            Instant now = now();
            completion = claims.complete(request.key(), token, result, leases.recordExpiry(now), now);
        } catch (RuntimeException e) {
            // The effect happened but completion could not be recorded. Report the message as failed: the next
            // delivery re-claims after the lease, and the downstream's idempotency key makes the effect a no-op.
            // Always a retry, whatever the exception: the message must come back to find its effect applied.
            listener.completionFailed(request.key(), e);
            Classification c = consumer.classifier().classify(e);
            return new MessageOutcome.RetryLater(
                    request.key().value(),
                    new Classification(FailureClass.TRANSIENT, c.errorType(), c.reason(), CLAIM_STORE),
                    backoff.delaySeconds(message.receiveCount(), random));
        }
        if (!completion.applied()) {
            return new MessageOutcome.Superseded(request.key().value(), token);
        }
        return new MessageOutcome.Applied(request.key().value(), token, result);
    }

    private <E, W> MessageOutcome processTransactional(
            TransactionalEffectConsumer<E, W> consumer,
            ParsedMessage<E> parsed,
            IncomingMessage message,
            ClaimRequest request) {
        if (!(claims instanceof TransactionalClaimStore<?> store)) {
            throw new IllegalStateException(consumer.name() + " needs a TransactionalClaimStore, got "
                    + claims.getClass().getSimpleName());
        }
        @SuppressWarnings("unchecked")
        TransactionalClaimStore<W> txStore = (TransactionalClaimStore<W>) store;
        long started = System.nanoTime();
        ClaimOutcome outcome;
        try {
            outcome = txStore.claimAndCommit(
                    request,
                    token -> consumer.effectWrites(
                            parsed.event(),
                            new EffectContext(
                                    request.key(),
                                    token,
                                    message.receiveCount(),
                                    message.messageId(),
                                    leases.effectDeadline(request.leaseExpiresAt()),
                                    clock)),
                    consumer.resultSummary(parsed.event()),
                    now());
        } catch (RuntimeException e) {
            listener.effectFinished(consumer.name(), Duration.ofNanos(System.nanoTime() - started), false);
            return failedWithoutClaim(consumer, request, message, e, true, null);
        }
        if (outcome instanceof ClaimOutcome.Acquired committed) {
            listener.effectFinished(consumer.name(), Duration.ofNanos(System.nanoTime() - started), true);
            return new MessageOutcome.Applied(
                    request.key().value(),
                    committed.fencingToken(),
                    committed.claim().result());
        }
        return rejected(outcome, request, message);
    }

    private MessageOutcome rejected(ClaimOutcome outcome, ClaimRequest request, IncomingMessage message) {
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

    private MessageOutcome failedUnderClaim(
            IdempotentConsumer<?> consumer, ClaimRecord claim, IncomingMessage message, Throwable error) {
        Instant now = now();
        Classification c = consumer.classifier().classify(error);
        FailureRecord failure =
                FailureRecord.next(claim.lastFailure(), c, message.receiveCount(), now, message.sourceQueue());
        MessageOutcome superseded = release(claim, failure, now);
        return superseded != null ? superseded : routeFailure(claim.key(), failure, message);
    }

    /**
     * The dependency's breaker refused the call: the claim is released with a TRANSIENT {@value #CIRCUIT_OPEN} failure
     * of that dependency (the sweeper's evidence, should the message reach the DLQ), and the message is deferred.
     */
    private MessageOutcome refusedByBreaker(ClaimRecord claim, IncomingMessage message, CircuitBreaker.Permit refused) {
        Instant now = now();
        String dependency = breakers.dependency(claim.key().consumer());
        int delay = breakers.deferralSeconds(claim.key().consumer(), refused, message.receiveCount());
        Classification c = new Classification(
                FailureClass.TRANSIENT,
                CIRCUIT_OPEN,
                "the circuit breaker of " + dependency + " is open: not called, deferred " + delay + " s",
                dependency);
        FailureRecord failure = FailureRecord.next(
                claim.lastFailure(), c, message.receiveCount(), failedAt(refused, claim, now), message.sourceQueue());
        MessageOutcome superseded = release(claim, failure, now);
        return superseded != null
                ? superseded
                : new MessageOutcome.RefusedByBreaker(claim.key().value(), dependency, delay);
    }

    /**
     * When a refusal's failure happened: the dependency failed when the breaker opened, and the refusal stands for that
     * (or for the message's own last failure, if later). Dated now, a message refused after its dependency's
     * maintenance window has closed, before the breaker probes, would look as if it failed outside the window, and the
     * sweeper's auto-replay of that window would leave it to a person.
     */
    private static Instant failedAt(CircuitBreaker.Permit refused, ClaimRecord claim, Instant now) {
        Instant at = refused.openedAt() == null || refused.openedAt().isAfter(now) ? now : refused.openedAt();
        FailureRecord previous = claim.lastFailure();
        return previous != null
                        && previous.lastFailedAt().isAfter(at)
                        && !previous.lastFailedAt().isAfter(now)
                ? previous.lastFailedAt()
                : at;
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

    private MessageOutcome failedWithoutClaim(
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
                previousFailure(request.key(), now), c, message.receiveCount(), now, message.sourceQueue());
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
     * Records on a FIFO message's claim that it was held back behind its group's failed head, so that if it follows
     * the head into the dead-letter queue (its receive count climbs with the head's, though it never ran), the sweeper
     * finds it waiting behind its head, never a POISON "no failure recorded". The classification is the head's
     * class and dependency under its own error type {@value #WAITING_BEHIND_GROUP_HEAD}, so it is replayed in the same
     * window as its head. A member that cannot be read records nothing: its own failure shows once it runs.
     *
     * @param why the head's failure: class, dependency, and what happened to it
     */
    public <E> void recordWaiting(IdempotentConsumer<E> consumer, IncomingMessage member, Classification why) {
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
                    request, FailureRecord.next(null, why, member.receiveCount(), now, member.sourceQueue()), now);
        } catch (RuntimeException e) {
            listener.releaseFailed(key, e);
        }
    }

    /**
     * The failure the claim recorded before this attempt, so that the first failure time survives attempts that never
     * held the claim (a transaction that did not commit, a claim store that refused): one consistent read, on failure
     * paths only. Null when there is none or the store cannot be read either.
     */
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

    private MessageOutcome deadLetter(
            IdempotencyKey key, FailureRecord previous, Classification c, IncomingMessage message, Instant now) {
        FailureRecord failure = FailureRecord.next(previous, c, message.receiveCount(), now, message.sourceQueue());
        return new MessageOutcome.DeadLettered(key == null ? null : key.value(), failure);
    }

    private Instant now() {
        return clock.instant();
    }

    private static String abbreviate(String hash) {
        return hash == null ? "?" : hash.substring(0, Math.min(12, hash.length()));
    }
}
