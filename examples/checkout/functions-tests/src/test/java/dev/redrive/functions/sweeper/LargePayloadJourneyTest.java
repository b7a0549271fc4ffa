package dev.redrive.functions.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.aws.payload.S3ClaimChecks;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.functions.checkout.ConfirmationEmailHandler;
import dev.redrive.functions.checkout.OrderEvents;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.functions.testing.AdjustableClock;
import dev.redrive.functions.testing.MailProviderBreaker;
import dev.redrive.functions.testing.SqsPollerForTests;
import dev.redrive.quarkus.RedriveConfig;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Payloads up to SQS's limit and beyond, end to end through the deployed composition (the consumer's and the
 * sweeper's, on local AWS): a 900 KiB order inline, and a 5 MiB order by claim check in the SQS Extended Client
 * Library's format. Each is refused by the mail provider's open circuit breaker, dead-lettered as SQS's redrive
 * policy does (the message as it came), quarantined with its classification, replayed by a person once the provider is
 * back, applied once by the consumer (a duplicate of the replay is recognised), and archived whole past retention.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class LargePayloadJourneyTest {

    /** 900 KiB: under SQS's 1 MiB with room for the attributes a replay adds. */
    static final int INLINE_BYTES = 900 * 1024;
    /** 5 MiB: five times SQS's limit. */
    static final int CLAIM_CHECK_BYTES = 5 * 1024 * 1024;

    @Inject
    SweeperHandler sweeper;

    @Inject
    ConfirmationEmailHandler emailHandler;

    @Inject
    ReplayService replays;

    @Inject
    CheckoutConfig config;

    @Inject
    RedriveConfig redrive;

    @Inject
    AdjustableClock clock;

    final LocalAws aws = LocalAws.shared();
    final ObjectMapper json = new ObjectMapper();
    QueuePair queue;
    DynamoDbQuarantineLedger ledger;
    String claimCheckBucket;

    @BeforeEach
    void freshResources() {
        clock.reset();
        queue = SweeperTestResources.fresh(aws, config, redrive);
        claimCheckBucket = redrive.claimChecks().bucket().orElseThrow();
        aws.s3().createBucket(b -> b.bucket(claimCheckBucket));
        ledger = new DynamoDbQuarantineLedger(
                aws.dynamoDb(),
                config.sweeper().quarantineTable(),
                config.sweeper().controlTable(),
                clock);
    }

    @AfterEach
    void putTheClockBack() {
        clock.reset();
    }

    @Test
    void aNineHundredKibibyteOrderInlineIsQuarantinedReplayedAppliedOnceAndArchivedWhole() throws Exception {
        String payload = order("evt-inline-900k", INLINE_BYTES);
        assertThat(payload.getBytes(StandardCharsets.UTF_8).length).isBetween(INLINE_BYTES - 10, INLINE_BYTES);

        QuarantineRecord quarantined = refusedAndQuarantined("evt-inline-900k", payload, Map.of());

        assertThat(quarantined.body())
                .as("too large for a ledger item: kept aside")
                .isNull();
        assertThat(quarantined.bodyRef()).isNotNull();
        Message replayed = replayedOnceAndApplied(quarantined, "evt-inline-900k");
        assertThat(digest(replayed.body())).as("the payload itself, inline").isEqualTo(digest(payload));

        JsonNode line = archived(quarantined);
        assertThat(digest(line.get("payload").asText())).isEqualTo(digest(payload));
        assertThat(line.has("claimCheck")).isFalse();
    }

    @Test
    void aFiveMebibyteOrderByClaimCheckIsQuarantinedAsItsPointerReplayedAppliedOnceAndArchivedWhole() throws Exception {
        String payload = order("evt-claim-check-5m", CLAIM_CHECK_BYTES);
        ClaimChecks.ClaimCheck check = new S3ClaimChecks(aws.s3(), claimCheckBucket).checkIn(payload);
        assertThat(check.body().length()).isLessThan(1_000);

        QuarantineRecord quarantined = refusedAndQuarantined("evt-claim-check-5m", check.body(), check.attributes());

        assertThat(quarantined.body()).as("the quarantine keeps the pointer").isEqualTo(check.body());
        assertThat(quarantined.attributes())
                .as("kept with the type it came with")
                .containsEntry(
                        ClaimCheckPointer.SIZE_ATTRIBUTE,
                        new MessageAttribute(
                                ClaimCheckPointer.SIZE_DATA_TYPE,
                                check.attributes().get(ClaimCheckPointer.SIZE_ATTRIBUTE),
                                null));
        Message replayed = replayedOnceAndApplied(quarantined, "evt-claim-check-5m");
        assertThat(replayed.body()).as("the replay sends the pointer again").isEqualTo(check.body());
        assertThat(replayed.messageAttributes().get(ClaimCheckPointer.SIZE_ATTRIBUTE))
                .satisfies(a -> {
                    assertThat(a.dataType()).isEqualTo(ClaimCheckPointer.SIZE_DATA_TYPE);
                    assertThat(a.stringValue()).isEqualTo(Integer.toString(CLAIM_CHECK_BYTES));
                });

        JsonNode line = archived(quarantined);
        assertThat(digest(line.get("payload").asText()))
                .as("the archive stores the whole payload, not the pointer")
                .isEqualTo(digest(payload));
        assertThat(line.get("claimCheck").asText()).isEqualTo(check.body());
        assertThat(aws.s3().listObjectsV2(b -> b.bucket(claimCheckBucket)).contents())
                .as("the payload is left to the bucket's lifecycle rule (the default cleanup)")
                .hasSize(1);
    }

    /**
     * The first delivery, refused by the mail provider's open breaker after the claim (its key read from the payload),
     * then dead-lettered as SQS's redrive policy does once the receives are spent: the message as it came, without
     * metadata. Returns the record the sweep made of it.
     */
    private QuarantineRecord refusedAndQuarantined(String eventId, String body, Map<String, String> attributes) {
        Instant now = clock.instant();
        MailProviderBreaker.openFor1Minute(aws.dynamoDb(), redrive.breakers().table(), now);
        Map<String, MessageAttributeValue> typed = new HashMap<>();
        attributes.forEach((k, v) -> typed.put(
                k,
                MessageAttributeValue.builder()
                        .dataType(ClaimCheckPointer.SIZE_DATA_TYPE)
                        .stringValue(v)
                        .build()));
        aws.sqs().sendMessage(b -> b.queueUrl(queue.url()).messageBody(body).messageAttributes(typed));

        assertThat(new SqsPollerForTests(aws.sqs(), queue.url(), queue.arn()).pollOnce(emailHandler, 1))
                .isEqualTo(1);

        assertThat(emails(eventId)).as("the mail provider was not called").isZero();
        IdempotencyKey key = new IdempotencyKey(ConfirmationEmailConsumer.NAME, eventId);
        assertThat(emailClaim(key).lastFailure().classification().errorType())
                .as("claimed under the key in the payload, then refused by the breaker")
                .isEqualTo(MessageProcessor.CIRCUIT_OPEN);
        aws.sqs().purgeQueue(b -> b.queueUrl(queue.url()));
        aws.sqs().sendMessage(b -> b.queueUrl(queue.dlqUrl()).messageBody(body).messageAttributes(typed));

        Map<String, Object> summary = sweep();

        assertThat(summary).extractingByKey("quarantined").isEqualTo(1);
        QuarantineRecord r = ledger.ofQueue("order-placed-email", 10).get(0);
        assertThat(r.state()).isEqualTo(QuarantineState.QUARANTINED);
        assertThat(r.idempotencyKey()).isEqualTo(key.value());
        assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(r.classification().errorType()).isEqualTo(MessageProcessor.CIRCUIT_OPEN);
        return r;
    }

    /**
     * The provider is back (the breaker closed); a person replays the dead letter, the consumer applies it, a duplicate
     * of the replay is recognised, and a second replay is refused. Returns the replayed message as the queue gave it.
     */
    private Message replayedOnceAndApplied(QuarantineRecord r, String eventId) {
        new DynamoDbBreakerStore(aws.dynamoDb(), redrive.breakers().table())
                .transition(
                        ConfirmationEmailConsumer.DEPENDENCY,
                        1,
                        new BreakerState(BreakerState.Status.CLOSED, 2, null, null, null, null),
                        new BreakerTransition(
                                2, clock.instant(), BreakerState.Status.OPEN, BreakerState.Status.CLOSED, "mail back"));

        ReplayOutcome outcome =
                replays.replay(r.id(), Actor.person("ada"), "mail provider is back", Optional.empty(), false);

        assertThat(outcome).isInstanceOf(ReplayOutcome.Sent.class);
        List<Message> sent = aws.sqs()
                .receiveMessage(b -> b.queueUrl(queue.url())
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(2)
                        .messageAttributeNames("All"))
                .messages();
        assertThat(sent).hasSize(1);
        Message replayed = sent.get(0);
        assertThat(replayed.messageAttributes()).containsKey(ReplayMarker.ATTRIBUTE);
        SqsPollerForTests poller = new SqsPollerForTests(aws.sqs(), queue.url(), queue.arn());
        SQSBatchResponse first = emailHandler.handleRequest(poller.event(List.of(replayed)), null);
        SQSBatchResponse duplicate = emailHandler.handleRequest(poller.event(List.of(replayed)), null);
        aws.sqs().deleteMessage(b -> b.queueUrl(queue.url()).receiptHandle(replayed.receiptHandle()));

        assertThat(first.getBatchItemFailures()).isEmpty();
        assertThat(duplicate.getBatchItemFailures()).isEmpty();
        assertThat(emails(eventId)).as("one email, however many deliveries").isEqualTo(1);
        String email = aws.s3()
                .getObjectAsBytes(b -> b.bucket(config.checkout().emailOutboxBucket())
                        .key(S3EmailOutbox.objectKey(ConfirmationEmailConsumer.NAME + "#" + eventId)))
                .asUtf8String();
        assertThat(email).contains("Your order o-large is confirmed");
        assertThat(replays.replay(r.id(), Actor.person("ada"), "again?", Optional.empty(), false))
                .isInstanceOf(ReplayOutcome.NotReplayable.class);
        assertThat(ledger.find(r.id()).orElseThrow().state()).isEqualTo(QuarantineState.REPLAYED);
        return replayed;
    }

    /** Past retention, the sweep archives the record; returns its line in the archive object. */
    private JsonNode archived(QuarantineRecord r) throws Exception {
        clock.jump(Duration.ofDays(8));

        Map<String, Object> summary = sweep();

        assertThat(summary).extractingByKey("archived").isEqualTo(1);
        List<S3Object> objects = aws.s3()
                .listObjectsV2(b -> b.bucket(config.sweeper().archiveBucket()).prefix("archive/"))
                .contents();
        assertThat(objects).hasSize(1);
        List<JsonNode> lines = new ArrayList<>();
        var object = aws.s3()
                .getObject(b -> b.bucket(config.sweeper().archiveBucket())
                        .key(objects.get(0).key()));
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(new GZIPInputStream(object), StandardCharsets.UTF_8))) {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                lines.add(json.readTree(l));
            }
        }
        assertThat(ledger.find(r.id()).orElseThrow().archiveRef())
                .isEqualTo(objects.get(0).key());
        assertThat(lines).hasSize(1);
        return lines.get(0);
    }

    private dev.redrive.core.claim.ClaimRecord emailClaim(IdempotencyKey key) {
        return new dev.redrive.aws.claims.DynamoDbClaimStore(
                        aws.dynamoDb(), redrive.claims().table())
                .find(key, clock.instant())
                .orElseThrow();
    }

    private int emails(String eventId) {
        return aws.s3()
                .listObjectVersions(b -> b.bucket(config.checkout().emailOutboxBucket())
                        .prefix(S3EmailOutbox.objectKey(ConfirmationEmailConsumer.NAME + "#" + eventId)))
                .versions()
                .size();
    }

    private Map<String, Object> sweep() {
        return SweeperTestResources.sweepEmailDlq(sweeper);
    }

    /** A current OrderPlaced of {@code bytes} UTF-8 bytes, padded with an unknown field (consumers ignore those). */
    static String order(String eventId, int bytes) {
        String plain = OrderEvents.v2(eventId, "o-large", 1999, "EUR");
        String padField = ",\"pad\":\"\"";
        int pad = bytes - plain.length() - padField.length();
        return plain.substring(0, plain.length() - 1) + ",\"pad\":\"" + "x".repeat(pad) + "\"}";
    }

    /** A payload told apart without printing megabytes: its start, its length and its SHA-256. */
    static String digest(String payload) throws Exception {
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(payload.getBytes(StandardCharsets.UTF_8));
        return payload.substring(0, Math.min(40, payload.length())) + "… (" + payload.length() + " chars, sha256 "
                + HexFormat.of().formatHex(hash) + ")";
    }
}
