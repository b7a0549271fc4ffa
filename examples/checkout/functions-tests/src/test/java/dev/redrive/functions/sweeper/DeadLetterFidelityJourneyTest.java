package dev.redrive.functions.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.functions.checkout.ConfirmationEmailHandler;
import dev.redrive.functions.checkout.OrderEvents;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.functions.testing.AdjustableClock;
import dev.redrive.functions.testing.SqsPollerForTests;
import dev.redrive.quarkus.RedriveConfig;
import dev.redrive.testing.Attributes;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * A dead letter is the original and keeps its reason, end to end through the deployed composition on local AWS: the
 * consumer's gateway sends it to the DLQ, the sweeper quarantines it, a person replays it, the archive keeps it.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class DeadLetterFidelityJourneyTest {

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

    @BeforeEach
    void freshResources() {
        clock.reset();
        queue = SweeperTestResources.fresh(aws, config, redrive);
        aws.s3().createBucket(b -> b.bucket(redrive.claimChecks().bucket().orElseThrow()));
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

    /**
     * An order the email consumer refuses (PERMANENT InvalidRecipient) carries String, Number and Binary attributes: the
     * consumer dead-letters it, the sweeper quarantines it, a person replays it, and past retention it is archived. The
     * quarantine, the replay and the archive each keep every attribute with its type.
     */
    @Test
    void everyAttributeKeepsItsTypeThroughTheQuarantineTheReplayAndTheArchive() throws Exception {
        Map<String, MessageAttribute> original = Attributes.everyType();
        String body = OrderEvents.v2("evt-typed-1", "o-typed-1", 1999, "EUR").replace("ada@example.com", "a@@b");
        aws.sqs().sendMessage(b -> b.queueUrl(queue.url()).messageBody(body).messageAttributes(sqs(original)));
        assertThat(new SqsPollerForTests(aws.sqs(), queue.url(), queue.arn()).pollOnce(emailHandler, 1))
                .isEqualTo(1);

        assertThat(SweeperTestResources.sweepEmailDlq(sweeper))
                .extractingByKey("quarantined")
                .isEqualTo(1);
        QuarantineRecord r = ledger.ofQueue("order-placed-email", 10).get(0);
        assertThat(r.classification().errorType()).isEqualTo("InvalidRecipient");
        assertThat(r.attributes()).as("the quarantine").isEqualTo(original);

        ReplayOutcome outcome =
                replays.replay(r.id(), Actor.person("ada"), "fixed the address check", Optional.empty(), false);

        assertThat(outcome).isInstanceOf(ReplayOutcome.Sent.class);
        Message replay = aws.sqs()
                .receiveMessage(b -> b.queueUrl(queue.url()).waitTimeSeconds(2).messageAttributeNames("All"))
                .messages()
                .get(0);
        assertThat(replay.body()).isEqualTo(body);
        Map<String, MessageAttribute> replayed = typed(replay.messageAttributes());
        assertThat(replayed.remove(ReplayMarker.ATTRIBUTE))
                .as("the replay's marker")
                .isNotNull();
        assertThat(replayed).as("the replay").isEqualTo(original);
        aws.sqs().deleteMessage(b -> b.queueUrl(queue.url()).receiptHandle(replay.receiptHandle()));

        clock.jump(Duration.ofDays(8));
        assertThat(SweeperTestResources.sweepEmailDlq(sweeper))
                .extractingByKey("archived")
                .isEqualTo(1);
        assertThat(archivedAttributes()).as("the archive").isEqualTo(original);
    }

    /**
     * SQS allows ten attributes a message: one that came with ten has no room for the failure attribute. Its consumer
     * keeps the failure in a note beside it, and the sweeper quarantines it with its real class and errorType. Before,
     * the sweeper inferred them: a body that is not JSON (no claim) became POISON NoFailureRecorded, and a payload
     * reusing an applied order's key (the claim is the other payload's, completed) TRANSIENT AppliedBeforeDeadLetter,
     * which an approved maintenance window would even have auto-replayed. A refused recipient was found through its
     * claim already.
     */
    @Test
    void deadLettersWithTenAttributesAreQuarantinedWithTheirRealClassification() {
        Map<String, MessageAttributeValue> ten = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            ten.put(
                    "attr-" + i,
                    MessageAttributeValue.builder()
                            .dataType("String")
                            .stringValue("v-" + i)
                            .build());
        }
        String applied = OrderEvents.v2("evt-ten-applied", "o-ten-2", 1999, "EUR");
        aws.sqs().sendMessage(b -> b.queueUrl(queue.url()).messageBody(applied));
        SqsPollerForTests poller = new SqsPollerForTests(aws.sqs(), queue.url(), queue.arn());
        assertThat(poller.pollOnce(emailHandler, 1)).isEqualTo(1);
        Map<String, String> bodies = Map.of(
                "not json at all",
                "SCHEMA:NotJson",
                OrderEvents.v2("evt-ten-1", "o-ten-1", 1999, "EUR").replace("ada@example.com", "a@@b"),
                "PERMANENT:InvalidRecipient",
                applied.replace("1999", "2999"),
                "PERMANENT:PayloadMismatch");
        bodies.keySet()
                .forEach(body -> aws.sqs()
                        .sendMessage(
                                b -> b.queueUrl(queue.url()).messageBody(body).messageAttributes(ten)));
        int handled = 0;
        for (int round = 0; round < 5 && handled < 3; round++) {
            handled += poller.pollOnce(emailHandler, 1);
        }
        assertThat(handled).isEqualTo(3);

        assertThat(SweeperTestResources.sweepEmailDlq(sweeper))
                .extractingByKey("quarantined")
                .isEqualTo(3);

        Map<String, String> quarantined = new LinkedHashMap<>();
        for (QuarantineRecord r : ledger.ofQueue("order-placed-email", 10)) {
            assertThat(r.attributes()).as("the original ten, unchanged").isEqualTo(typed(ten));
            quarantined.put(
                    r.body(),
                    r.classification().failureClass() + ":" + r.classification().errorType());
        }
        assertThat(quarantined).containsExactlyInAnyOrderEntriesOf(bodies);
    }

    /**
     * The deployed consumer has the claim-check store (issue 14's bucket): an order just under SQS's 1 MiB, refused,
     * has no room for its failure metadata inline, so its dead letter goes by claim check, and the sweeper quarantines
     * the pointer with the failure and reads the whole payload behind it.
     */
    @Test
    void theDeployedConsumerSendsADeadLetterTooLargeWithItsMetadataByClaimCheck() {
        String body = LargePayloadJourneyTest.order("evt-near-limit", 1024 * 1024 - 100)
                .replace("ada@example.com", "a@@b");
        aws.sqs().sendMessage(b -> b.queueUrl(queue.url()).messageBody(body));
        assertThat(new SqsPollerForTests(aws.sqs(), queue.url(), queue.arn()).pollOnce(emailHandler, 1))
                .isEqualTo(1);

        Message dead = aws.sqs()
                .receiveMessage(
                        b -> b.queueUrl(queue.dlqUrl()).waitTimeSeconds(1).messageAttributeNames("All"))
                .messages()
                .get(0);
        assertThat(dead.body()).as("a pointer, not the payload").hasSizeLessThan(1_000);
        assertThat(dead.messageAttributes())
                .containsKeys(ClaimCheckPointer.SIZE_ATTRIBUTE, DeadLetterMetadata.ATTRIBUTE);
        aws.sqs()
                .changeMessageVisibility(b -> b.queueUrl(queue.dlqUrl())
                        .receiptHandle(dead.receiptHandle())
                        .visibilityTimeout(0));

        assertThat(SweeperTestResources.sweepEmailDlq(sweeper))
                .extractingByKey("quarantined")
                .isEqualTo(1);
        QuarantineRecord r = ledger.ofQueue("order-placed-email", 10).get(0);
        assertThat(r.classification().errorType()).isEqualTo("InvalidRecipient");
        assertThat(r.idempotencyKey()).isEqualTo("confirmation-email#evt-near-limit");
        assertThat(r.body()).isEqualTo(dead.body());
    }

    static Map<String, MessageAttributeValue> sqs(Map<String, MessageAttribute> attributes) {
        Map<String, MessageAttributeValue> values = new LinkedHashMap<>();
        attributes.forEach((k, v) -> values.put(
                k,
                MessageAttributeValue.builder()
                        .dataType(v.dataType())
                        .stringValue(v.stringValue())
                        .binaryValue(v.binaryValue() == null ? null : SdkBytes.fromByteArray(v.binaryValue()))
                        .build()));
        return values;
    }

    static Map<String, MessageAttribute> typed(Map<String, MessageAttributeValue> values) {
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>();
        values.forEach((k, v) -> attributes.put(
                k,
                new MessageAttribute(
                        v.dataType(),
                        v.stringValue(),
                        v.binaryValue() == null ? null : v.binaryValue().asByteArray())));
        return attributes;
    }

    /** The attributes of the one line of the one archive object, as the line holds them. */
    private Map<String, MessageAttribute> archivedAttributes() throws Exception {
        List<S3Object> objects = aws.s3()
                .listObjectsV2(b -> b.bucket(config.sweeper().archiveBucket()).prefix("archive/"))
                .contents();
        assertThat(objects).hasSize(1);
        var object = aws.s3()
                .getObject(b -> b.bucket(config.sweeper().archiveBucket())
                        .key(objects.get(0).key()));
        JsonNode line;
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(new GZIPInputStream(object), StandardCharsets.UTF_8))) {
            line = json.readTree(in.readLine());
        }
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>();
        line.get("attributes").fields().forEachRemaining(e -> {
            JsonNode a = e.getValue();
            attributes.put(
                    e.getKey(),
                    new MessageAttribute(
                            a.get("dataType").asText(),
                            a.has("stringValue") ? a.get("stringValue").asText() : null,
                            a.has("binaryValue")
                                    ? Base64.getDecoder()
                                            .decode(a.get("binaryValue").asText())
                                    : null));
        });
        return attributes;
    }
}
