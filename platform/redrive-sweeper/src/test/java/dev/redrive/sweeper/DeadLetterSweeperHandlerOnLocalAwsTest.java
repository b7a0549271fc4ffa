package dev.redrive.sweeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.lambda.JsonMessages;
import dev.redrive.lambda.Redrive;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.lambda.SqsConsumerHandler;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The sweeper as a function of its own, on local AWS: built from a {@code REDRIVE_*} environment alone, it serves a
 * consumer whose code it does not have, by the route the environment declares (queues, key pointer, schema): a dead
 * letter is quarantined, schema-checked and idempotency-checked, and replayed in a maintenance window; one whose
 * effect was applied is marked already applied; one that breaks the schema stays out of the source queue with its
 * reason.
 */
@LocalAwsTest
class DeadLetterSweeperHandlerOnLocalAwsTest {

    final LocalAws aws = LocalAws.shared();
    final List<String> receipts = new ArrayList<>();
    Map<String, String> environment;
    QueuePair queue;
    String consumerQueue;

    @BeforeEach
    void resources() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        consumerQueue = "receipts-" + suffix;
        queue = LocalResources.createQueuePair(aws, consumerQueue, 3, 30);
        environment = new TreeMap<>(Map.of(
                "REDRIVE_CLAIMS_TABLE", "claims-" + suffix,
                "REDRIVE_SWEEPER_QUARANTINE_TABLE", "quarantine-" + suffix,
                "REDRIVE_SWEEPER_CONTROL_TABLE", "control-" + suffix,
                "REDRIVE_SWEEPER_ARCHIVE_BUCKET", "archive-" + suffix,
                "REDRIVE_ROUTES", routes(consumerQueue)));
        LocalResources.createTable(aws.dynamoDb(), environment.get("REDRIVE_CLAIMS_TABLE"));
        LocalResources.createQuarantineTable(aws.dynamoDb(), environment.get("REDRIVE_SWEEPER_QUARANTINE_TABLE"));
        LocalResources.createKeyValueTable(aws.dynamoDb(), environment.get("REDRIVE_SWEEPER_CONTROL_TABLE"));
        aws.s3().createBucket(b -> b.bucket(environment.get("REDRIVE_SWEEPER_ARCHIVE_BUCKET")));
    }

    /** The consumer's route, as a team declares it: where its queues are, where its key is, what its events look like. */
    private static String routes(String queue) {
        return """
                {"version": 1, "routes": [{
                  "consumer": "receipts",
                  "sourceQueue": "%s",
                  "deadLetterQueue": "%s-dlq",
                  "key": {"pointer": "/orderId"},
                  "schemas": {"OrderPlaced": {"1": {
                    "type": "object",
                    "required": ["orderId", "amountCents"],
                    "properties": {"orderId": {"type": "string"}, "amountCents": {"type": "integer", "minimum": 0}}
                  }}},
                  "breaker": "receipts-webhook"
                }]}""".formatted(queue, queue);
    }

    /** The team's consumer, which the sweeper never sees: it records the receipts it sent. */
    final class Receipts extends SqsConsumerHandler {
        Receipts() {
            super(Redrive.with(RedriveSettings.fromEnvironment(environment), aws.dynamoDb(), aws.sqs(), aws.s3())
                    .externalEffect("receipts", JsonMessages.keyAt("/orderId"), (order, context) -> {
                        receipts.add(order.get("orderId").asText());
                        return "sent";
                    }));
        }
    }

    @Test
    void aDeclaredConsumersDeadLettersAreQuarantinedCheckedAndReplayedWithoutItsCode() {
        Instant now = Instant.now();
        new DynamoDbMaintenanceWindows(aws.dynamoDb(), environment.get("REDRIVE_SWEEPER_CONTROL_TABLE"))
                .add(new MaintenanceWindow(
                        "chg-7",
                        "receipts-webhook",
                        now.minusSeconds(3600),
                        now.minusSeconds(1),
                        "oncall",
                        "webhook maintenance (over)"));
        String applied = "{\"orderId\":\"o-applied\",\"amountCents\":100}";
        SQSBatchResponse first = new Receipts().handleRequest(event(applied), null);
        assertThat(first.getBatchItemFailures()).isEmpty();
        assertThat(receipts).containsExactly("o-applied");
        deadLetter(applied, FailureClass.TRANSIENT, "receipts-webhook", now.minusSeconds(600));
        deadLetter(
                "{\"orderId\":\"o-missed\",\"amountCents\":250}",
                FailureClass.TRANSIENT,
                "receipts-webhook",
                now.minusSeconds(600));
        deadLetter(
                "{\"orderId\":\"o-broken\",\"amountCents\":\"lots\"}",
                FailureClass.TRANSIENT,
                "receipts-webhook",
                now.minusSeconds(600));

        Map<String, Object> summary = new DeadLetterSweeperHandler(DeadLetterSweeperHandler.fromSettings(
                        SweeperFunctionSettings.fromEnvironment(environment),
                        RedriveSettings.fromEnvironment(environment),
                        aws.dynamoDb(),
                        aws.sqs(),
                        aws.s3()))
                .handleRequest(Map.of("source", "redrive.schedule"), null);

        @SuppressWarnings("unchecked")
        Map<String, Object> route = (Map<String, Object>) summary.get(consumerQueue + "-dlq");
        assertThat(route).extractingByKey("quarantined").isEqualTo(3);
        assertThat(route)
                .extractingByKey("replayOutcomes")
                .isEqualTo(Map.of("Sent", 1, "AlreadyApplied", 1, "Refused", 1));
        List<Message> replayed = aws.sqs()
                .receiveMessage(
                        b -> b.queueUrl(queue.url()).maxNumberOfMessages(10).waitTimeSeconds(1))
                .messages();
        assertThat(replayed)
                .extracting(Message::body)
                .containsExactly("{\"orderId\":\"o-missed\",\"amountCents\":250}");
        DynamoDbQuarantineLedger ledger = new DynamoDbQuarantineLedger(
                aws.dynamoDb(),
                environment.get("REDRIVE_SWEEPER_QUARANTINE_TABLE"),
                environment.get("REDRIVE_SWEEPER_CONTROL_TABLE"),
                Clock.systemUTC());
        List<QuarantineRecord> all = ledger.ofQueue(consumerQueue, 10);
        assertThat(all).hasSize(3);
        assertThat(record(all, "o-broken").state())
                .as("an incompatible dead letter is archived, never replayed")
                .isEqualTo(QuarantineState.ARCHIVED);
        assertThat(record(all, "o-broken").note()).startsWith("incompatible: ").contains("amountCents");
        assertThat(record(all, "o-applied").state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(record(all, "o-applied").note()).contains("already applied");
        assertThat(record(all, "o-missed").state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(receipts).as("the sweeper applied nothing itself").containsExactly("o-applied");
    }

    private static QuarantineRecord record(List<QuarantineRecord> records, String orderId) {
        return records.stream()
                .filter(r -> r.origin().idempotencyKey().equals("receipts#" + orderId))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aTypoInTheEnvironmentIsRefusedAtStartWithTheVariablesName() {
        environment.put("REDRIVE_SWEEPER_RETENTION", "seven days");

        assertThatThrownBy(() -> DeadLetterSweeperHandler.fromEnvironment(environment))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("REDRIVE_SWEEPER_RETENTION");
    }

    private SQSEvent event(String body) {
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId(UUID.randomUUID().toString());
        m.setReceiptHandle("r");
        m.setBody(body);
        m.setAttributes(
                Map.of("ApproximateReceiveCount", "1", "SentTimestamp", Long.toString(System.currentTimeMillis())));
        m.setEventSourceArn(queue.arn());
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(m));
        return event;
    }

    /** Puts a message in the DLQ the way a consumer dead-letters it, with its failure metadata. */
    private void deadLetter(String body, FailureClass c, String dependency, Instant failedAt) {
        String orderId = body.replaceAll(".*\"orderId\":\"([^\"]+)\".*", "$1");
        DeadLetterMetadata meta = new DeadLetterMetadata(
                "receipts",
                "receipts#" + orderId,
                queue.arn(),
                UUID.randomUUID().toString(),
                c.name(),
                "Timeout",
                "Timeout from " + dependency,
                dependency,
                3,
                failedAt.toEpochMilli(),
                failedAt.toEpochMilli());
        aws.sqs()
                .sendMessage(b -> b.queueUrl(queue.dlqUrl())
                        .messageBody(body)
                        .messageAttributes(Map.of(
                                DeadLetterMetadata.ATTRIBUTE,
                                MessageAttributeValue.builder()
                                        .dataType("String")
                                        .stringValue(meta.toJson())
                                        .build())));
    }
}
