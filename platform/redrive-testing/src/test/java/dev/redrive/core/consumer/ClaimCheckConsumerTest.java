package dev.redrive.core.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.claim.FencedWrite;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.failure.TransientFailure;
import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.core.payload.ClaimCheckMissing;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.testing.ManualClock;
import dev.redrive.testing.ScriptedConsumer;
import dev.redrive.testing.claim.InMemoryClaimStore;
import dev.redrive.testing.consumer.InMemoryQueueGateway;
import dev.redrive.testing.payload.InMemoryClaimChecks;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A claim check on the consumer's path: the consumer reads the payload its pointer names, and everything else (the
 * DLQ, so the quarantine and its replays) gets the message as it came, the pointer.
 */
class ClaimCheckConsumerTest {

    static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");
    static final Duration REMAINING = Duration.ofSeconds(30);

    final ManualClock clock = new ManualClock(T0);
    final InMemoryClaimStore store = new InMemoryClaimStore();
    final FullJitterBackoff backoff = new FullJitterBackoff(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(5));
    final LeasePolicy leases = new LeasePolicy(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofDays(35));
    final ScriptedConsumer consumer = new ScriptedConsumer();
    final InMemoryClaimChecks checks = new InMemoryClaimChecks();

    MessageProcessor processor(ClaimChecks claimChecks, ClaimCheckCleanup cleanup) {
        return new MessageProcessor(store, leases, backoff, new Mulberry32(3), clock, ProcessingListener.NONE)
                .withClaimChecks(claimChecks, cleanup);
    }

    IncomingMessage pointerTo(String payload) {
        ClaimChecks.ClaimCheck check = checks.checkIn(payload);
        Map<String, String> attributes = new HashMap<>(check.attributes());
        attributes.put("tenant", "t-1");
        String id = UUID.randomUUID().toString();
        return new IncomingMessage(id, "rh-" + id, check.body(), attributes, 1, "arn:aws:sqs:us-east-1:1:orders", null);
    }

    @Test
    void theConsumerReadsThePayloadThePointerNames() {
        String padding = "x".repeat(5 * 1024 * 1024);
        MessageOutcome outcome = processor(checks, ClaimCheckCleanup.LIFECYCLE)
                .process(consumer, pointerTo("order-5m|" + padding), () -> REMAINING);

        assertThat(outcome).isEqualTo(new MessageOutcome.Applied("scripted#order-5m", 1, "ok"));
        assertThat(consumer.applied("order-5m")).isEqualTo(1);
        assertThat(checks.size())
                .as("kept: the bucket's lifecycle rule expires it")
                .isEqualTo(1);
    }

    @Test
    void aDuplicatePointerIsRecognisedByThePayloadsKey() {
        MessageProcessor p = processor(checks, ClaimCheckCleanup.LIFECYCLE);
        IncomingMessage first = pointerTo("order-1|a");
        IncomingMessage sameOrderOtherObject = pointerTo("order-1|a");

        p.process(consumer, first, () -> REMAINING);
        MessageOutcome again = p.process(consumer, sameOrderOtherObject, () -> REMAINING);

        assertThat(again).isEqualTo(new MessageOutcome.Duplicate("scripted#order-1"));
        assertThat(consumer.applied("order-1")).isEqualTo(1);
    }

    @Test
    void aPointerWhosePayloadIsGoneIsDeadLetteredAsSchemaWithTheReasonAndNoClaim() {
        IncomingMessage message = pointerTo("order-2|a");
        checks.discard(message.body(), message.attributes());

        MessageOutcome outcome =
                processor(checks, ClaimCheckCleanup.LIFECYCLE).process(consumer, message, () -> REMAINING);

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
            assertThat(d.key()).isNull();
            assertThat(d.failure().failureClass()).isEqualTo(FailureClass.SCHEMA);
            assertThat(d.failure().classification().errorType()).isEqualTo(ClaimCheckMissing.ERROR_TYPE);
            assertThat(d.failure().classification().reason()).contains("is gone");
        });
        assertThat(store.size()).isZero();
        assertThat(consumer.applied("order-2")).isZero();
    }

    @Test
    void aStoreThatFailsIsRetriedWithBackoffNotDeadLettered() {
        AtomicInteger reads = new AtomicInteger();
        ClaimChecks down = new FailingReads(checks, reads);
        IncomingMessage message = pointerTo("order-3|a");

        MessageOutcome outcome =
                processor(down, ClaimCheckCleanup.LIFECYCLE).process(consumer, message, () -> REMAINING);

        assertThat(reads).hasValue(1);
        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.RetryLater.class, r -> {
            assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
            assertThat(r.classification().errorType()).isEqualTo(MessageProcessor.CLAIM_CHECK_UNREADABLE);
            assertThat(r.classification().dependency()).isEqualTo(MessageProcessor.CLAIM_CHECK_STORE);
        });
        assertThat(consumer.applied("order-3")).isZero();
        assertThat(store.size()).isZero();
    }

    @Test
    void afterApplyDeletesThePayloadOnlyOnceTheClaimIsCompleted() {
        consumer.failing("order-4", (k, c) -> new TransientFailure("provider down", "email-provider"));
        IncomingMessage failing = pointerTo("order-4|a");
        IncomingMessage applied = pointerTo("order-5|a");
        MessageProcessor p = processor(checks, ClaimCheckCleanup.AFTER_APPLY);

        assertThat(p.process(consumer, failing, () -> REMAINING)).isInstanceOf(MessageOutcome.RetryLater.class);
        assertThat(p.process(consumer, applied, () -> REMAINING)).isInstanceOf(MessageOutcome.Applied.class);

        assertThat(checks.payloadOf(failing.body(), failing.attributes()))
                .as("a failed attempt keeps its payload for the next delivery")
                .isEqualTo("order-4|a");
        assertThat(checks.size()).isEqualTo(1);
        assertThat(store.find(new IdempotencyKey("scripted", "order-5"), T0)
                        .orElseThrow()
                        .status())
                .isEqualTo(ClaimStatus.COMPLETED);
    }

    /** The same message delivered again (SQS redelivers it, or its whole batch comes back): one more receive. */
    static IncomingMessage redelivered(IncomingMessage m) {
        return new IncomingMessage(
                m.messageId(),
                "rh-again-" + m.messageId(),
                m.body(),
                m.attributes(),
                m.receiveCount() + 1,
                m.sourceQueue(),
                m.messageGroupId(),
                m.delivered());
    }

    @Test
    void afterApplyARedeliveryOfTheAppliedMessageIsAcknowledgedAsADuplicateNotDeadLettered() {
        IncomingMessage message = pointerTo("order-8|a");
        MessageProcessor p = processor(checks, ClaimCheckCleanup.AFTER_APPLY);
        assertThat(p.process(consumer, message, () -> REMAINING)).isInstanceOf(MessageOutcome.Applied.class);
        assertThat(checks.size()).as("its payload was deleted once applied").isZero();

        MessageOutcome again = p.process(consumer, redelivered(message), () -> REMAINING);

        assertThat(again).isEqualTo(new MessageOutcome.Duplicate("scripted#order-8"));
        assertThat(again.acknowledged()).isTrue();
        assertThat(consumer.applied("order-8")).isEqualTo(1);
    }

    @Test
    void afterApplyABatchThatComesBackWholeIsCountedAsDuplicatesAndNothingIsDeadLettered() {
        InMemoryQueueGateway queues = new InMemoryQueueGateway();
        BatchProcessor batch = new BatchProcessor(processor(checks, ClaimCheckCleanup.AFTER_APPLY), queues, 2);
        List<IncomingMessage> first = List.of(pointerTo("order-9|a"), pointerTo("order-10|b"));
        BatchReport applied = batch.process(consumer, first, Duration.ofSeconds(20), () -> REMAINING);
        assertThat(applied.countsByOutcome()).isEqualTo(Map.of("Applied", 2));

        BatchReport again = batch.process(
                consumer,
                first.stream().map(ClaimCheckConsumerTest::redelivered).toList(),
                Duration.ofSeconds(20),
                () -> REMAINING);

        assertThat(again.countsByOutcome()).isEqualTo(Map.of("Duplicate", 2));
        assertThat(again.failedMessageIds()).isEmpty();
        assertThat(queues.deadLetters())
                .as("no applied message is dead-lettered")
                .isEmpty();
        assertThat(consumer.applied("order-9")).isEqualTo(1);
        assertThat(consumer.applied("order-10")).isEqualTo(1);
    }

    @Test
    void afterApplyOnAwsWithoutListBucketARedeliveryIsADuplicateThoughTheStoreRefusesTheRead() {
        InMemoryClaimChecks onAws = InMemoryClaimChecks.withoutListBucket();
        ClaimChecks.ClaimCheck check = onAws.checkIn("order-11|a");
        IncomingMessage message =
                new IncomingMessage("m-11", "rh-1", check.body(), check.attributes(), 1, "orders", null);
        MessageProcessor p = processor(onAws, ClaimCheckCleanup.AFTER_APPLY);
        assertThat(p.process(consumer, message, () -> REMAINING)).isInstanceOf(MessageOutcome.Applied.class);

        assertThat(p.process(consumer, redelivered(message), () -> REMAINING))
                .isEqualTo(new MessageOutcome.Duplicate("scripted#order-11"));
        assertThat(consumer.applied("order-11")).isEqualTo(1);
    }

    @Test
    void aGonePayloadOfAMessageNeverAppliedIsStillDeadLetteredThoughAnotherPointerToTheSamePayloadWasApplied() {
        MessageProcessor p = processor(checks, ClaimCheckCleanup.AFTER_APPLY);
        assertThat(p.process(consumer, pointerTo("order-12|a"), () -> REMAINING))
                .isInstanceOf(MessageOutcome.Applied.class);
        IncomingMessage other = pointerTo("order-12|a");
        checks.discard(other.body(), other.attributes());

        MessageOutcome outcome = p.process(consumer, other, () -> REMAINING);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        MessageOutcome.DeadLettered.class,
                        d -> assertThat(d.failure().classification().errorType())
                                .isEqualTo(ClaimCheckMissing.ERROR_TYPE));
    }

    @Test
    void afterApplyAPayloadIsKeptWhenTheRecordThatItWasAppliedCannotBeWritten() {
        List<String> notDiscarded = new java.util.concurrent.CopyOnWriteArrayList<>();
        ProcessingListener listener = new ProcessingListener() {
            @Override
            public void claimCheckNotDiscarded(String messageId, RuntimeException error) {
                notDiscarded.add(messageId + ": " + error.getMessage());
            }
        };
        ClaimStore failingRecords = new FailingOnClaimCheckKeys(store, true, false);
        MessageProcessor p = new MessageProcessor(failingRecords, leases, backoff, new Mulberry32(3), clock, listener)
                .withClaimChecks(checks, ClaimCheckCleanup.AFTER_APPLY);
        IncomingMessage message = pointerTo("order-13|a");

        assertThat(p.process(consumer, message, () -> REMAINING)).isInstanceOf(MessageOutcome.Applied.class);

        assertThat(checks.payloadOf(message.body(), message.attributes()))
                .as("kept for its redelivery; the lifecycle rule expires it")
                .isEqualTo("order-13|a");
        assertThat(notDiscarded)
                .singleElement()
                .asString()
                .contains(message.messageId())
                .contains("throttled");
    }

    @Test
    void aGonePayloadWhoseAppliedRecordCannotBeReadIsRetriedNotDeadLettered() {
        MessageProcessor applying = processor(checks, ClaimCheckCleanup.AFTER_APPLY);
        IncomingMessage message = pointerTo("order-14|a");
        assertThat(applying.process(consumer, message, () -> REMAINING)).isInstanceOf(MessageOutcome.Applied.class);
        MessageProcessor lookupFails = new MessageProcessor(
                        new FailingOnClaimCheckKeys(store, false, true),
                        leases,
                        backoff,
                        new Mulberry32(3),
                        clock,
                        ProcessingListener.NONE)
                .withClaimChecks(checks, ClaimCheckCleanup.AFTER_APPLY);

        MessageOutcome outcome = lookupFails.process(consumer, redelivered(message), () -> REMAINING);

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.RetryLater.class, r -> {
            assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
            assertThat(r.classification().dependency()).isEqualTo(MessageProcessor.CLAIM_STORE);
            assertThat(r.classification().reason()).contains("whether it was applied could not be looked up");
        });
        assertThat(consumer.applied("order-14")).isEqualTo(1);
    }

    @Test
    void aDeadLetterInABatchIsTheMessageAsItCameThePointerWithItsAttributes() {
        consumer.failing(
                "order-6", (k, c) -> new dev.redrive.core.failure.PermanentFailure("CardDeclined", "card declined"));
        InMemoryQueueGateway queues = new InMemoryQueueGateway();
        BatchProcessor batch = new BatchProcessor(processor(checks, ClaimCheckCleanup.LIFECYCLE), queues, 2);
        IncomingMessage deadLettered = pointerTo("order-6|" + "y".repeat(2 * 1024 * 1024));
        IncomingMessage fine = pointerTo("order-7|a");

        BatchReport report =
                batch.process(consumer, List.of(deadLettered, fine), Duration.ofSeconds(20), () -> REMAINING);

        assertThat(report.failedMessageIds()).isEmpty();
        assertThat(queues.deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.message().body()).isEqualTo(deadLettered.body());
            assertThat(d.message().attributes()).isEqualTo(deadLettered.attributes());
            assertThat(d.failure().classification().errorType()).isEqualTo("CardDeclined");
        });
        assertThat(consumer.applied("order-7")).isEqualTo(1);
    }

    /**
     * The claim store, throttled on the records kept under claim checks' locations (producer keys starting {@code
     * claim-check:}): on writing them, on reading them, or both.
     */
    private record FailingOnClaimCheckKeys(ClaimStore inner, boolean writes, boolean reads) implements ClaimStore {
        private static boolean underALocation(IdempotencyKey key) {
            return key.producerKey().startsWith("claim-check:");
        }

        private static RuntimeException throttled() {
            return new TransientFailure("throttled (ProvisionedThroughputExceeded)", MessageProcessor.CLAIM_STORE);
        }

        @Override
        public ClaimOutcome claim(ClaimRequest request, Instant now) {
            if (writes && underALocation(request.key())) {
                throw throttled();
            }
            return inner.claim(request, now);
        }

        @Override
        public FencedWrite complete(
                IdempotencyKey key, long fencingToken, String result, Instant expiresAt, Instant now) {
            return inner.complete(key, fencingToken, result, expiresAt, now);
        }

        @Override
        public FencedWrite release(IdempotencyKey key, long fencingToken, FailureRecord failure, Instant now) {
            return inner.release(key, fencingToken, failure, now);
        }

        @Override
        public FencedWrite recordFailure(ClaimRequest request, FailureRecord failure, Instant now) {
            return inner.recordFailure(request, failure, now);
        }

        @Override
        public Optional<ClaimRecord> find(IdempotencyKey key, Instant now) {
            if (reads && underALocation(key)) {
                throw throttled();
            }
            return inner.find(key, now);
        }
    }

    /** A claim-check store whose reads fail, as S3 answering 503 SlowDown past the one quick retry. */
    private record FailingReads(ClaimChecks inner, AtomicInteger reads) implements ClaimChecks {
        @Override
        public boolean isClaimCheck(String body, Map<String, String> attributes) {
            return inner.isClaimCheck(body, attributes);
        }

        @Override
        public String payloadOf(String body, Map<String, String> attributes) {
            reads.incrementAndGet();
            throw new TransientFailure("SlowDown (HTTP 503)", MessageProcessor.CLAIM_CHECK_STORE);
        }

        @Override
        public ClaimCheck checkIn(String payload) {
            return inner.checkIn(payload);
        }

        @Override
        public void discard(String body, Map<String, String> attributes) {
            inner.discard(body, attributes);
        }
    }
}
