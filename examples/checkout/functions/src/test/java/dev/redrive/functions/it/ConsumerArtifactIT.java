package dev.redrive.functions.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlacedReader;
import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.checkout.OrderEvents;
import dev.redrive.testing.localaws.LocalAws;
import io.quarkus.test.common.DevServicesContext;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The packaged artifact (the JVM jar here, the native binary with -Pnative) running the confirmation-email consumer:
 * an SQS event in Lambda's own JSON, through the Runtime API, against local AWS.
 */
@QuarkusIntegrationTest
@TestProfile(ConsumerProfile.class)
@WithTestResource(ItResources.class)
class ConsumerArtifactIT {

    DevServicesContext context;

    final LocalAws aws = LocalAws.shared();

    /** Each test starts from an empty queue: a message another test left in flight must not join its batch. */
    @BeforeEach
    void emptyTheQueue() {
        aws.sqs().purgeQueue(b -> b.queueUrl(ordersQueue()));
    }

    @Test
    void aBatchWithAMessageAnotherSandboxHoldsAnswersAPartialFailureAndAppliesTheRest() throws Exception {
        String fresh = "evt-" + UUID.randomUUID();
        String held = "evt-" + UUID.randomUUID();
        List<Message> received =
                sendAndReceive(OrderEvents.v2(fresh, "o-1", 1999, "EUR"), OrderEvents.v2(held, "o-2", 500, "EUR"));
        Message heldMessage = received.stream()
                .filter(m -> m.body().contains(held))
                .findFirst()
                .orElseThrow();
        holdElsewhere(heldMessage);

        JsonNode response = new LambdaArtifact(context).invoke(sqsEvent(received));

        assertThat(response.get("batchItemFailures"))
                .as("only the held message comes back; the other one is done")
                .hasSize(1);
        assertThat(response.get("batchItemFailures")
                        .get(0)
                        .get("itemIdentifier")
                        .asText())
                .isEqualTo(heldMessage.messageId());
        List<String> emails = aws.s3().listObjectsV2(b -> b.bucket(ItResources.OUTBOX)).contents().stream()
                .map(o -> o.key())
                .toList();
        assertThat(emails).as("the applied message's email").anyMatch(key -> key.contains(fresh));
        assertThat(emails).as("no email for the held message").noneMatch(key -> key.contains(held));
    }

    @Test
    void eachInvocationPrintsItsMetricsAsEmbeddedMetricFormatOnStdout() throws Exception {
        List<Message> received = sendAndReceive(OrderEvents.v2("evt-" + UUID.randomUUID(), "o-3", 100, "EUR"));

        try (StandardOutput out = StandardOutput.capture()) {
            new LambdaArtifact(context).invoke(sqsEvent(received));

            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(out.emfDocuments()).anySatisfy(doc -> {
                        assertThat(doc.path("Consumer").asText()).isEqualTo("confirmation-email");
                        assertThat(doc.path("Processed").asDouble()).isEqualTo(1);
                        JsonNode directive =
                                doc.get("_aws").get("CloudWatchMetrics").get(0);
                        assertThat(directive.get("Namespace").asText()).isEqualTo("Redrive");
                        assertThat(directive.get("Dimensions").toString()).isEqualTo("[[\"Consumer\"]]");
                    }));
        }
    }

    private String ordersQueue() {
        return aws.sqs().getQueueUrl(b -> b.queueName(ItResources.ORDERS)).queueUrl();
    }

    private List<Message> sendAndReceive(String... bodies) {
        String queue = ordersQueue();
        for (String body : bodies) {
            aws.sqs().sendMessage(b -> b.queueUrl(queue).messageBody(body));
        }
        List<Message> received = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            received.addAll(aws.sqs()
                    .receiveMessage(b -> b.queueUrl(queue)
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(1)
                            .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                    .messages());
            return received.size() >= bodies.length;
        });
        return received;
    }

    /** Another sandbox claimed it a moment ago: its lease is live, so this delivery must wait (Deferred). */
    private void holdElsewhere(Message message) {
        OrderPlacedReader reader = new OrderPlacedReader(LambdaArtifact.JSON, new EventSchemas());
        var parsed = reader.read(new IncomingMessage(
                message.messageId(), message.receiptHandle(), message.body(), Map.of(), 1, "", null));
        Instant now = Instant.now();
        ClaimOutcome outcome = new DynamoDbClaimStore(aws.dynamoDb(), ItResources.CLAIMS)
                .claim(
                        new ClaimRequest(
                                new IdempotencyKey("confirmation-email", parsed.producerKey()),
                                PayloadFingerprint.of(parsed.canonicalPayload()),
                                now.plus(Duration.ofMinutes(5)),
                                now.plus(Duration.ofDays(1)),
                                new MessageOrigin(ItResources.ORDERS, "another-sandbox")),
                        now);
        assertThat(outcome).isInstanceOf(ClaimOutcome.Acquired.class);
    }

    /** The event Lambda's SQS event source mapping sends, in its JSON. */
    private Map<String, Object> sqsEvent(List<Message> messages) {
        String arn = "arn:aws:sqs:" + LocalAws.REGION + ":000000000000:" + ItResources.ORDERS;
        List<Map<String, Object>> records = new ArrayList<>();
        for (Message m : messages) {
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("messageId", m.messageId());
            record.put("receiptHandle", m.receiptHandle());
            record.put("body", m.body());
            Map<String, String> attributes = new LinkedHashMap<>();
            m.attributes().forEach((k, v) -> attributes.put(k.toString(), v));
            record.put("attributes", attributes);
            record.put("messageAttributes", Map.of());
            record.put("md5OfBody", m.md5OfBody());
            record.put("eventSource", "aws:sqs");
            record.put("eventSourceARN", arn);
            record.put("awsRegion", LocalAws.REGION);
            records.add(record);
        }
        return Map.of("Records", records);
    }
}
