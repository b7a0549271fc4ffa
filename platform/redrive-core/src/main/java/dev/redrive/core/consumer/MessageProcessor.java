package dev.redrive.core.consumer;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.RandomSource;
import dev.redrive.core.breaker.CircuitBreaker;
import dev.redrive.core.claim.ClaimOutcome;
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
import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.core.payload.ClaimCheckMissing;
import dev.redrive.core.payload.ClaimChecks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs one message through the rules: parse, claim, effect, complete; or classify the failure and decide where the
 * message goes. The claim always comes first, before any work and before any retry bookkeeping.
 *
 * <p>It never throws for a message: every failure becomes a {@link MessageOutcome}. What a failure records on the claim,
 * and where its message goes, is {@link ClaimFailures}'s.
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

    /** The dependency name failures to read a claim check's payload are recorded under. */
    public static final String CLAIM_CHECK_STORE = "claim-check-store";

    /** The error type of a claim check whose payload could not be read this time (the store failed): retried. */
    public static final String CLAIM_CHECK_UNREADABLE = "ClaimCheckUnreadable";

    private final ClaimStore claims;
    private final LeasePolicy leases;
    private final Clock clock;
    private final ProcessingListener listener;
    private final EffectBreakers breakers;
    private final ClaimFailures failures;
    private final ClaimChecks claimChecks;
    private final ClaimCheckCleanup cleanup;
    private final FullJitterBackoff backoff;
    private final RandomSource random;
    private final AppliedClaimChecks applied;
    private final String buildVersion;

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
        this(
                claims,
                leases,
                backoff,
                random,
                clock,
                listener,
                breakers,
                ClaimChecks.NONE,
                ClaimCheckCleanup.LIFECYCLE,
                "");
    }

    private MessageProcessor(
            ClaimStore claims,
            LeasePolicy leases,
            FullJitterBackoff backoff,
            RandomSource random,
            Clock clock,
            ProcessingListener listener,
            EffectBreakers breakers,
            ClaimChecks claimChecks,
            ClaimCheckCleanup cleanup,
            String buildVersion) {
        this.buildVersion = buildVersion == null ? "" : buildVersion.strip();
        this.claimChecks = Objects.requireNonNull(claimChecks, "claimChecks");
        this.cleanup = Objects.requireNonNull(cleanup, "cleanup");
        this.backoff = backoff;
        this.random = random;
        this.breakers = Objects.requireNonNull(breakers, "breakers");
        this.claims = Objects.requireNonNull(claims, "claims");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.listener = listener == null ? ProcessingListener.NONE : listener;
        this.failures =
                new ClaimFailures(claims, leases, backoff, random, clock, this.listener, breakers, this.buildVersion);
        this.applied = new AppliedClaimChecks(claims, leases, claimChecks, clock);
    }

    /**
     * This processor reading claim checks through {@code checks}: a message marked as one is parsed from the payload its
     * pointer names, and goes on as it came (the pointer) everywhere else: to the DLQ, and so to the quarantine and
     * its replays.
     *
     * @param cleanup when the payload is deleted ({@link ClaimCheckCleanup#LIFECYCLE}: never, by Redrive)
     */
    public MessageProcessor withClaimChecks(ClaimChecks checks, ClaimCheckCleanup cleanup) {
        return new MessageProcessor(
                claims, leases, backoff, random, clock, listener, breakers, checks, cleanup, buildVersion);
    }

    /**
     * This processor recording {@code buildVersion} (the consumer's build, as its settings name it) with every failure
     * it records: on the claim, on a dead letter it sends, so the quarantine and the console's deploy markers know which
     * build failed. A processor built without one records none (an empty version, as records written before versions
     * were).
     */
    public MessageProcessor withBuildVersion(String buildVersion) {
        return new MessageProcessor(
                claims, leases, backoff, random, clock, listener, breakers, claimChecks, cleanup, buildVersion);
    }

    /** The build version this processor records with each failure; empty when none. */
    public String buildVersion() {
        return buildVersion;
    }

    /**
     * Processes {@code message} for {@code consumer}.
     *
     * @param remaining how much of the invocation is left, read when the claim is made (sizes the lease)
     */
    public <E> MessageOutcome process(
            IdempotentConsumer<E> consumer, IncomingMessage message, Supplier<Duration> remaining) {
        IncomingMessage readable;
        try {
            readable = readable(message);
        } catch (ClaimCheckMissing gone) {
            return duplicateOrGone(consumer, message, gone);
        } catch (RuntimeException storeFailed) {
            // The store is down or slow (it answers within the effect clients' timeouts): retried with backoff, like a
            // failed claim. Nothing is claimed, so nothing is recorded: the failure is on the message alone.
            Classification c = consumer.classifier().classify(storeFailed);
            if (c.failureClass() != FailureClass.TRANSIENT) {
                return failures.deadLetter(null, null, c.withDependency(CLAIM_CHECK_STORE), message, now());
            }
            return new MessageOutcome.RetryLater(
                    null,
                    new Classification(
                            FailureClass.TRANSIENT,
                            CLAIM_CHECK_UNREADABLE,
                            "the claim check's payload could not be read: " + c.reason(),
                            CLAIM_CHECK_STORE),
                    backoff.delaySeconds(message.receiveCount(), random));
        }
        MessageOutcome outcome = processReadable(consumer, message, readable, remaining);
        if (outcome instanceof MessageOutcome.Applied done && cleanup == ClaimCheckCleanup.AFTER_APPLY) {
            discardPayload(consumer, message, done.key(), remaining);
        }
        return outcome;
    }

    /**
     * A claim check whose payload is gone (or refused): a duplicate when a record says its message was applied
     * already ({@link AppliedClaimChecks}: {@code AFTER_APPLY} deleted the payload once it was), acknowledged and never
     * dead-lettered; else a dead letter, as no retry brings a payload back (it keeps the pointer, and the reason says
     * what is gone). When the claim store cannot say, it is retried, never dead-lettered on a guess.
     */
    private MessageOutcome duplicateOrGone(
            IdempotentConsumer<?> consumer, IncomingMessage message, ClaimCheckMissing gone) {
        Optional<String> appliedUnder;
        try {
            appliedUnder = applied.appliedKey(consumer.name(), message);
        } catch (RuntimeException lookupFailed) {
            Classification c = consumer.classifier().classify(lookupFailed);
            return new MessageOutcome.RetryLater(
                    null,
                    new Classification(
                            FailureClass.TRANSIENT,
                            c.errorType(),
                            "its claim check's payload is gone, and whether it was applied could not be looked up: "
                                    + c.reason(),
                            CLAIM_STORE),
                    backoff.delaySeconds(message.receiveCount(), random));
        }
        if (appliedUnder.isPresent()) {
            return new MessageOutcome.Duplicate(appliedUnder.get());
        }
        return failures.deadLetter(
                null,
                null,
                Classification.of(FailureClass.SCHEMA, gone.errorType(), gone.getMessage()),
                message,
                now());
    }

    /** The message to parse: its claim check's payload in place of the pointer, or the message itself. */
    private IncomingMessage readable(IncomingMessage message) {
        if (!claimChecks.isClaimCheck(message.body(), message.attributes())) {
            return message;
        }
        return message.withBody(claimChecks.payloadOf(message.body(), message.attributes()));
    }

    /**
     * Deletes an applied message's payload, once a record under its location says it was applied under {@code key}
     * (so that a redelivery is known for a duplicate without it). A failure of either leaves the payload to the bucket's
     * lifecycle rule.
     */
    private void discardPayload(
            IdempotentConsumer<?> consumer, IncomingMessage message, String key, Supplier<Duration> remaining) {
        try {
            if (applied.record(consumer.name(), message, key, remaining.get())) {
                claimChecks.discard(message.body(), message.attributes());
            } else {
                listener.claimCheckNotDiscarded(
                        message.messageId(),
                        new IllegalStateException("the claim store refused the record that message "
                                + message.messageId() + " was applied under " + key + "; its payload is kept"));
            }
        } catch (RuntimeException e) {
            listener.claimCheckNotDiscarded(message.messageId(), e);
        }
    }

    private <E> MessageOutcome processReadable(
            IdempotentConsumer<E> consumer,
            IncomingMessage message,
            IncomingMessage readable,
            Supplier<Duration> remaining) {
        ParsedMessage<E> parsed;
        try {
            parsed = consumer.parse(readable);
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
            return failures.deadLetter(null, null, c, message, now());
        }
        IdempotencyKey key;
        try {
            key = new IdempotencyKey(consumer.name(), parsed.producerKey());
        } catch (RuntimeException e) {
            // A key that could break a DynamoDB key, a header or a log line is no key: nothing is claimed under it.
            return failures.deadLetter(
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
            return failures.failedWithoutClaim(consumer, request, message, e, false, CLAIM_STORE);
        }
        if (!(outcome instanceof ClaimOutcome.Acquired acquired)) {
            return failures.rejected(outcome, request, message);
        }
        long token = acquired.fencingToken();
        Instant deadline = leases.effectDeadline(acquired.claim().leaseExpiresAt());
        EffectContext context =
                new EffectContext(request.key(), token, message.receiveCount(), message.messageId(), deadline, clock);
        if (!now().isBefore(deadline)) {
            // Claimed too late to start anything (a slow claim, a frozen worker): the effect never starts.
            return failures.failedUnderClaim(
                    consumer, acquired.claim(), message, new EffectDeadlinePassed("the effect", deadline, null));
        }
        // The breaker is asked after the claim (a duplicate is acknowledged, not deferred) and before any call.
        CircuitBreaker.Permit permit = breakers.admit(consumer.name(), now(), message);
        if (permit != null && !permit.calls()) {
            return failures.refusedByBreaker(acquired.claim(), message, permit);
        }
        long started = System.nanoTime();
        String result;
        try {
            result = consumer.apply(parsed.event(), context);
        } catch (Exception | LinkageError | AssertionError e) {
            listener.effectFinished(consumer.name(), Duration.ofNanos(System.nanoTime() - started), false);
            breakers.settle(consumer.name(), permit, consumer.classifier().classify(e), now());
            return failures.failedUnderClaim(consumer, acquired.claim(), message, e);
        }
        listener.effectFinished(consumer.name(), Duration.ofNanos(System.nanoTime() - started), true);
        breakers.settle(consumer.name(), permit, null, now());
        FencedWrite completion;
        try {
            Instant now = now();
            completion = claims.complete(request.key(), token, result, leases.recordExpiry(now), now);
        } catch (RuntimeException e) {
            return failures.completionNotRecorded(consumer, request.key(), message, e);
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
            return failures.failedWithoutClaim(consumer, request, message, e, true, null);
        }
        if (outcome instanceof ClaimOutcome.Acquired committed) {
            listener.effectFinished(consumer.name(), Duration.ofNanos(System.nanoTime() - started), true);
            return new MessageOutcome.Applied(
                    request.key().value(),
                    committed.fencingToken(),
                    committed.claim().result());
        }
        return failures.rejected(outcome, request, message);
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
        IncomingMessage readable;
        try {
            readable = readable(member);
        } catch (RuntimeException unreadable) {
            return; // its own failure shows once it runs
        }
        failures.recordWaiting(consumer, readable, why);
    }

    private Instant now() {
        return clock.instant();
    }
}
