package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.failure.TransientFailure;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import dev.redrive.testing.localaws.SqsEventSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A plain Java handler, no Quarkus: {@link Redrive} and {@link SqsConsumerHandler}, configured by a {@code REDRIVE_*}
 * environment, driven with the SQSEvent Lambda would build from real SQS queues and DynamoDB claims on local AWS.
 */
@LocalAwsTest
class PlainHandlerOnLocalAwsTest {

    final LocalAws aws = LocalAws.shared();
    final Map<String, Integer> receiptsSent = new ConcurrentHashMap<>();
    final List<String> emf = Collections.synchronizedList(new ArrayList<>());
    String claimsTable;
    QueuePair queue;
    Receipts handler;

    /** What a team writes: one class, its effect, the key's place in the message. */
    static final class Receipts extends SqsConsumerHandler {
        Receipts(Redrive redrive, Map<String, Integer> sent) {
            super(redrive.externalEffect("receipts", JsonMessages.keyAt("/orderId"), (order, context) -> {
                if (order.path("email").asText().endsWith("@down.example")) {
                    throw new TransientFailure("the mail provider answered 503", "mail-provider");
                }
                sent.merge(order.get("orderId").asText(), 1, Integer::sum);
                return "sent";
            }));
        }
    }

    @BeforeEach
    void resources() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        claimsTable = "plain-claims-" + suffix;
        LocalResources.createTable(aws.dynamoDb(), claimsTable);
        queue = LocalResources.createQueuePair(aws, "plain-receipts-" + suffix, 3, 30);
        RedriveSettings settings = RedriveSettings.fromEnvironment(Map.of(
                "REDRIVE_CLAIMS_TABLE", claimsTable,
                "REDRIVE_BACKOFF_BASE", "1s",
                "REDRIVE_BACKOFF_MAX_DELAY", "2s",
                "REDRIVE_BACKOFF_SEED", "42"));
        handler = new Receipts(
                Redrive.with(settings, aws.dynamoDb(), aws.sqs(), aws.s3()).metrics(new EmfOutput(emf::add)),
                receiptsSent);
    }

    @Test
    void partialBatchResponseADeadLetterAndADuplicate() throws Exception {
        String o1 = "o-" + UUID.randomUUID();
        String o2 = "o-" + UUID.randomUUID();
        send("{\"orderId\":\"" + o1 + "\",\"email\":\"a@example.com\"}");
        send("{\"orderId\":\"" + o2 + "\",\"email\":\"b@down.example\"}");
        send("this is not json");
        List<Message> received = receive(3);
        String failing = received.stream()
                .filter(m -> m.body().contains(o2))
                .findFirst()
                .orElseThrow()
                .messageId();

        SQSBatchResponse response = handler.handleRequest(event(received), LambdaContexts.deadlineIn(30_000));

        assertThat(response.getBatchItemFailures())
                .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .as("partial batch response: only the record whose dependency was down comes back")
                .containsExactly(failing);
        assertThat(receiptsSent).containsOnly(Map.entry(o1, 1));
        List<Message> dead = aws.sqs()
                .receiveMessage(
                        b -> b.queueUrl(queue.dlqUrl()).waitTimeSeconds(1).messageAttributeNames("All"))
                .messages();
        assertThat(dead).extracting(Message::body).as("dead-lettered at once").containsExactly("this is not json");
        DeadLetterMetadata why = DeadLetterMetadata.parse(dead.get(0)
                        .messageAttributes()
                        .get(DeadLetterMetadata.ATTRIBUTE)
                        .stringValue())
                .orElseThrow();
        assertThat(why.failureClass()).isEqualTo("SCHEMA");
        assertThat(why.errorType()).isEqualTo("NotJson");
        assertThat(why.sourceQueue()).isEqualTo(queue.arn());

        send("{\"orderId\":\"" + o1 + "\",\"email\":\"a@example.com\"}"); // the producer published it again
        List<Message> again = receive(1);
        while (again.stream().noneMatch(m -> m.body().contains(o1))) {
            again = receive(1); // the failed record's retry may come first
        }
        SQSBatchResponse duplicate = handler.handleRequest(
                event(again.stream().filter(m -> m.body().contains(o1)).toList()), LambdaContexts.deadlineIn(30_000));

        assertThat(duplicate.getBatchItemFailures())
                .as("a duplicate is acknowledged")
                .isEmpty();
        assertThat(receiptsSent).as("and not applied again").containsOnly(Map.entry(o1, 1));
        assertThat(new DynamoDbClaimStore(aws.dynamoDb(), claimsTable)
                        .find(new IdempotencyKey("receipts", o1), Instant.now())
                        .orElseThrow()
                        .status())
                .isEqualTo(ClaimStatus.COMPLETED);
        assertThat(total("Processed")).as("EMF Processed").isEqualTo(1);
        assertThat(total("Duplicates")).as("EMF Duplicates").isEqualTo(1);
        assertThat(total("DeadLettered")).as("EMF DeadLettered").isEqualTo(1);
    }

    /** A transactional effect: a daily revenue counter whose increment commits with the claim. */
    static final class Revenue extends SqsConsumerHandler {
        Revenue(Redrive redrive, String table) {
            super(redrive.transactionalEffect(
                    "revenue",
                    JsonMessages.keyAt("/eventId"),
                    (event, context) -> List.of(TransactWriteItem.builder()
                            .update(u -> u.tableName(table)
                                    .key(Map.of(
                                            "pk",
                                            AttributeValue.fromS(
                                                    "day#" + event.get("day").asText())))
                                    .updateExpression("ADD totalMinor :amount")
                                    .expressionAttributeValues(Map.of(
                                            ":amount",
                                            AttributeValue.fromN(
                                                    event.get("amountMinor").asText()))))
                            .build())));
        }
    }

    @Test
    void aTransactionalEffectCommitsOnceWithItsClaim() {
        String revenueTable = claimsTable.replace("claims", "revenue");
        LocalResources.createTable(aws.dynamoDb(), revenueTable);
        RedriveSettings settings = RedriveSettings.fromEnvironment(Map.of("REDRIVE_CLAIMS_TABLE", claimsTable));
        Revenue revenue = new Revenue(
                Redrive.with(settings, aws.dynamoDb(), aws.sqs(), aws.s3()).metrics(new EmfOutput(emf::add)),
                revenueTable);
        String body = "{\"eventId\":\"e-" + UUID.randomUUID() + "\",\"day\":\"2026-12-05\",\"amountMinor\":1250}";

        for (int delivery = 1; delivery <= 2; delivery++) {
            send(body);
            SQSBatchResponse response = revenue.handleRequest(event(receive(1)), LambdaContexts.deadlineIn(30_000));
            assertThat(response.getBatchItemFailures())
                    .as("delivery %d", delivery)
                    .isEmpty();
        }

        assertThat(aws.dynamoDb()
                        .getItem(b -> b.tableName(revenueTable)
                                .key(Map.of("pk", AttributeValue.fromS("day#2026-12-05")))
                                .consistentRead(true))
                        .item()
                        .get("totalMinor")
                        .n())
                .as("counted once")
                .isEqualTo("1250");
    }

    /** The sum of {@code metric} over the EMF documents written. */
    private double total(String metric) throws Exception {
        double sum = 0;
        for (String line : List.copyOf(emf)) {
            sum += new ObjectMapper().readTree(line).path(metric).asDouble(0);
        }
        return sum;
    }

    private void send(String body) {
        aws.sqs().sendMessage(b -> b.queueUrl(queue.url()).messageBody(body));
    }

    private List<Message> receive(int count) {
        return SqsEventSource.receiveMessages(aws.sqs(), queue.url(), count, SqsEventSource.WAIT);
    }

    private SQSEvent event(List<Message> messages) {
        return SqsEventSource.event(messages, queue.arn());
    }
}
