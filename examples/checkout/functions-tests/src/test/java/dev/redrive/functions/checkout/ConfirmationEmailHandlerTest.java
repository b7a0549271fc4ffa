package dev.redrive.functions.checkout;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.clients.EffectClients;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.EmailOutbox;
import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.functions.testing.MailProviderBreaker;
import dev.redrive.quarkus.RedriveConfig;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.sqs.model.Message;

/** The confirmation email consumer on local AWS: S3 outbox, DynamoDB claims, SQS dead letters. */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class ConfirmationEmailHandlerTest {

    @Inject
    ConfirmationEmailHandler handler;

    @Inject
    DynamoDbClaimStore claims;

    @Inject
    CheckoutConfig config;

    @Inject
    RedriveConfig redrive;

    @Inject
    ObjectMapper json;

    @Inject
    @Identifier(ConfirmationEmailConsumer.DEPENDENCY)
    S3Client mailProvider;

    LocalAws aws = LocalAws.shared();
    QueuePair queue;

    @BeforeEach
    void freshResources() {
        aws.reset();
        LocalResources.createTable(aws.dynamoDb(), claims.table());
        LocalResources.createVersionedBucket(aws, config.checkout().emailOutboxBucket());
        LocalResources.createKeyValueTable(aws.dynamoDb(), redrive.breakers().table());
        queue = LocalResources.createQueuePair(aws, "order-placed-email", 3, 30);
    }

    @Test
    void theMailProvidersClientIsAnEffectClientOnTheApplicationsEndpoint() {
        // One retry layer: the SQS redelivery. The client the outbox sends with retries a connection blip once at most.
        var override = mailProvider.serviceClientConfiguration().overrideConfiguration();
        assertThat(override.retryStrategy().orElseThrow().maxAttempts()).isEqualTo(EffectClients.MAX_ATTEMPTS);
        assertThat(override.apiCallAttemptTimeout()).contains(redrive.effects().attemptTimeout());
        assertThat(override.apiCallTimeout()).contains(redrive.effects().callTimeout());
        assertThat(mailProvider.serviceClientConfiguration().endpointOverride())
                .isEqualTo(aws.s3().serviceClientConfiguration().endpointOverride());
    }

    @Test
    void aRedeliveredOrderSendsOneEmail() {
        String eventId = "evt-" + UUID.randomUUID();
        String body = OrderEvents.v2(eventId, "o-1", 1999, "EUR");

        SQSBatchResponse first = handler.handleRequest(event(record(body)), null);
        SQSBatchResponse second = handler.handleRequest(event(record(body)), null);

        assertThat(first.getBatchItemFailures()).isEmpty();
        assertThat(second.getBatchItemFailures()).isEmpty();
        String objectKey = S3EmailOutbox.objectKey("confirmation-email#" + eventId);
        List<ObjectVersion> versions = aws.s3()
                .listObjectVersions(
                        b -> b.bucket(config.checkout().emailOutboxBucket()).prefix(objectKey))
                .versions();
        assertThat(versions)
                .as("one write of the email, however many deliveries")
                .hasSize(1);
        String email = aws.s3()
                .getObjectAsBytes(
                        b -> b.bucket(config.checkout().emailOutboxBucket()).key(objectKey))
                .asUtf8String();
        assertThat(email)
                .contains("\"fencingToken\":1")
                .contains("Your order o-1 is confirmed")
                .contains("19.99 EUR");
    }

    @Test
    void theOutboxRefusesASecondEmailUnderTheSameKeyLikeAnIdempotentProvider() {
        S3EmailOutbox outbox = new S3EmailOutbox(aws.s3(), config.checkout().emailOutboxBucket(), json);
        EmailOutbox.Email email = new EmailOutbox.Email(
                "confirmation-email#evt-x", 1, "ada@example.com", "s", "b", java.time.Duration.ofSeconds(20));

        String first = outbox.send(email);
        String second = outbox.send(new EmailOutbox.Email(
                "confirmation-email#evt-x", 2, "ada@example.com", "s", "b", java.time.Duration.ofSeconds(20)));

        assertThat(first).startsWith("s3://");
        assertThat(second).startsWith("already sent: ");
        assertThat(aws.s3()
                        .listObjectVersions(b -> b.bucket(config.checkout().emailOutboxBucket()))
                        .versions())
                .singleElement()
                .satisfies(v -> assertThat(v.key()).isEqualTo(S3EmailOutbox.objectKey("confirmation-email#evt-x")));
    }

    @Test
    void schemaProblemsGoStraightToTheDlqWithAReasonThatNamesThemButNotThePayload() throws Exception {
        SQSEvent event = event(
                record(OrderEvents.v1("evt-old", "o-2", 500, "EUR")),
                record(OrderEvents.v2("evt-bad", "o-3", 500, "EUR")
                        .replace("\"amountMinor\":500", "\"amountMinor\":\"five hundred\"")),
                record("{\"eventType\":\"OrderPlaced\",\"version\":9,\"eventId\":\"evt-future\"}"),
                record("{\"eventType\":\"OrderPlaced\",\"eventId\":\"evt-noversion\"}"),
                record(OrderEvents.v2("evt-good", "o-4", 100, "EUR")));

        SQSBatchResponse response = handler.handleRequest(event, null);

        assertThat(response.getBatchItemFailures()).isEmpty();
        List<Message> dead = aws.sqs()
                .receiveMessage(b -> b.queueUrl(queue.dlqUrl())
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(1)
                        .messageAttributeNames("All"))
                .messages();
        assertThat(dead).hasSize(4);
        Map<String, String> reasons = new TreeMap<>();
        for (Message m : dead) {
            DeadLetterMetadata meta = DeadLetterMetadata.parse(m.messageAttributes()
                            .get(DeadLetterMetadata.ATTRIBUTE)
                            .stringValue())
                    .orElseThrow();
            assertThat(meta.failureClass()).isEqualTo("SCHEMA");
            assertThat(meta.consumer()).isEqualTo("confirmation-email");
            reasons.put(meta.errorType(), meta.reason());
        }
        assertThat(reasons).containsOnlyKeys("OutdatedVersion", "SchemaValidation", "UnknownVersion", "MissingVersion");
        assertThat(reasons.get("OutdatedVersion")).contains("OrderPlaced v1 is an older version");
        assertThat(reasons.get("SchemaValidation"))
                .contains("$.total.amountMinor is string, expected integer")
                .doesNotContain("five hundred");
        assertThat(reasons.get("UnknownVersion")).contains("v9 is not a known version");
    }

    @Test
    void anOpenMailProviderBreakerInTheControlTableDefersTheEmailWithoutSendingIt() {
        Instant now = Instant.now();
        MailProviderBreaker.openFor1Minute(aws.dynamoDb(), redrive.breakers().table(), now);
        String eventId = "evt-" + UUID.randomUUID();
        SQSEvent.SQSMessage order = record(OrderEvents.v2(eventId, "o-7", 700, "EUR"));

        SQSBatchResponse response = handler.handleRequest(event(order), null);

        assertThat(response.getBatchItemFailures())
                .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly(order.getMessageId());
        assertThat(aws.s3()
                        .listObjectsV2(b -> b.bucket(config.checkout().emailOutboxBucket()))
                        .contents())
                .as("the mail provider was not called")
                .isEmpty();
        var failure = claims.find(new IdempotencyKey(ConfirmationEmailConsumer.NAME, eventId), Instant.now())
                .orElseThrow()
                .lastFailure();
        assertThat(failure.classification().errorType()).isEqualTo(MessageProcessor.CIRCUIT_OPEN);
        assertThat(failure.classification().dependency()).isEqualTo(ConfirmationEmailConsumer.DEPENDENCY);
    }

    @Test
    void theHandlerAnswersThroughTheLambdaRuntimeInterface() throws Exception {
        String eventId = "evt-" + UUID.randomUUID();
        SQSEvent event = event(record(OrderEvents.v2(eventId, "o-9", 4200, "USD")), record("not json"));
        int port = ConfigProvider.getConfig().getValue("quarkus.lambda.mock-event-server.test-port", Integer.class);

        String response = given().baseUri("http://localhost:" + port)
                .contentType("application/json")
                .body(json.writeValueAsString(event))
                .when()
                .post("/_lambda_")
                .then()
                .statusCode(200)
                .extract()
                .asString();

        JsonNode answer = json.readTree(response);
        assertThat(answer.get("batchItemFailures")).isEmpty();
        assertThat(aws.s3()
                        .listObjectsV2(b -> b.bucket(config.checkout().emailOutboxBucket()))
                        .contents())
                .hasSize(1);
        assertThat(aws.sqs()
                        .receiveMessage(b -> b.queueUrl(queue.dlqUrl()).waitTimeSeconds(1))
                        .messages())
                .extracting(Message::body)
                .containsExactly("not json");
    }

    /**
     * Lambda's JSON for an SQS record carries a Binary attribute as base64 ({@code binaryValue}) and a Number's text with
     * its type: read through the runtime interface, the dead letter carries both as they were sent.
     */
    @Test
    void binaryAndNumberAttributesInLambdasJsonReachTheDlqWithTheirTypes() throws Exception {
        int port = ConfigProvider.getConfig().getValue("quarkus.lambda.mock-event-server.test-port", Integer.class);
        ObjectNode event = json.createObjectNode();
        ObjectNode r = event.putArray("Records").addObject();
        r.put("messageId", UUID.randomUUID().toString());
        r.put("receiptHandle", "rh");
        r.put("body", "not json");
        r.putObject("attributes").put("ApproximateReceiveCount", "1");
        ObjectNode attributes = r.putObject("messageAttributes");
        ObjectNode blob = attributes.putObject("blob");
        blob.putNull("stringValue");
        blob.put("binaryValue", "AAEC/w==");
        blob.putArray("stringListValues");
        blob.putArray("binaryListValues");
        blob.put("dataType", "Binary");
        ObjectNode ratio = attributes.putObject("ratio");
        ratio.put("stringValue", "0.25");
        ratio.putArray("stringListValues");
        ratio.putArray("binaryListValues");
        ratio.put("dataType", "Number.float");
        r.put("eventSource", "aws:sqs");
        r.put("eventSourceARN", queue.arn());

        given().baseUri("http://localhost:" + port)
                .contentType("application/json")
                .body(json.writeValueAsString(event))
                .when()
                .post("/_lambda_")
                .then()
                .statusCode(200);

        Message dead = aws.sqs()
                .receiveMessage(
                        b -> b.queueUrl(queue.dlqUrl()).waitTimeSeconds(1).messageAttributeNames("All"))
                .messages()
                .get(0);
        assertThat(dead.messageAttributes().get("blob").dataType()).isEqualTo("Binary");
        assertThat(dead.messageAttributes().get("blob").binaryValue().asByteArray())
                .isEqualTo(new byte[] {0, 1, 2, (byte) 0xff});
        assertThat(dead.messageAttributes().get("ratio").dataType()).isEqualTo("Number.float");
        assertThat(dead.messageAttributes().get("ratio").stringValue()).isEqualTo("0.25");
    }

    private SQSEvent.SQSMessage record(String body) {
        SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
        r.setMessageId(UUID.randomUUID().toString());
        r.setBody(body);
        r.setEventSourceArn(queue.arn());
        r.setEventSource("aws:sqs");
        r.setAttributes(Map.of("ApproximateReceiveCount", "1"));
        return r;
    }

    private static SQSEvent event(SQSEvent.SQSMessage... records) {
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(records));
        return event;
    }
}
