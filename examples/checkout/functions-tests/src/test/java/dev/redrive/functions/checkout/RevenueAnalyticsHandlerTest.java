package dev.redrive.functions.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;

/** The revenue counter: a non-idempotent increment made exactly-once by committing it with the claim. */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class RevenueAnalyticsHandlerTest {

    @Inject
    RevenueAnalyticsHandler handler;

    @Inject
    DynamoDbClaimStore claims;

    @Inject
    CheckoutConfig config;

    LocalAws aws = LocalAws.shared();
    QueuePair queue;

    @BeforeEach
    void freshResources() {
        aws.reset();
        LocalResources.createTable(aws.dynamoDb(), claims.table());
        LocalResources.createTable(aws.dynamoDb(), config.checkout().revenueTable());
        queue = LocalResources.createQueuePair(aws, "order-placed-revenue", 5, 30);
    }

    @Test
    void theCounterEqualsTheSumOfUniqueOrdersWhenEveryOrderArrivesOneToThreeTimesConcurrently() throws Exception {
        int orders = 300;
        Random random = new Random(20261129);
        long expected = 0;
        List<SQSEvent.SQSMessage> deliveries = new ArrayList<>();
        for (int i = 0; i < orders; i++) {
            long amount = 100 + random.nextInt(100_000);
            expected += amount;
            String body = OrderEvents.v2("evt-" + i + "-" + UUID.randomUUID(), "o-" + i, amount, "EUR");
            int copies = 1 + random.nextInt(3);
            for (int c = 0; c < copies; c++) {
                deliveries.add(record(body));
            }
        }
        Collections.shuffle(deliveries, random);
        List<List<SQSEvent.SQSMessage>> batches = new ArrayList<>();
        for (int from = 0; from < deliveries.size(); from += 10) {
            batches.add(deliveries.subList(from, Math.min(deliveries.size(), from + 10)));
        }
        ExecutorService lambdas = Executors.newFixedThreadPool(4);
        List<Future<SQSBatchResponse>> responses = new ArrayList<>();
        List<SQSEvent.SQSMessage> retried = Collections.synchronizedList(new ArrayList<>());
        try {
            for (List<SQSEvent.SQSMessage> batch : batches) {
                responses.add(lambdas.submit(() -> {
                    SQSBatchResponse r = handler.handleRequest(event(batch), null);
                    r.getBatchItemFailures()
                            .forEach(f -> batch.stream()
                                    .filter(m -> m.getMessageId().equals(f.getItemIdentifier()))
                                    .forEach(retried::add));
                    return r;
                }));
            }
            for (Future<SQSBatchResponse> f : responses) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            lambdas.shutdown();
        }
        // A copy deferred because its twin held the lease comes back later, as SQS would redeliver it.
        for (int round = 0; round < 5 && !retried.isEmpty(); round++) {
            List<SQSEvent.SQSMessage> again = new ArrayList<>(retried);
            retried.clear();
            SQSBatchResponse r = handler.handleRequest(event(again), null);
            r.getBatchItemFailures()
                    .forEach(f -> again.stream()
                            .filter(m -> m.getMessageId().equals(f.getItemIdentifier()))
                            .forEach(retried::add));
        }

        assertThat(retried).as("every delivery acknowledged in the end").isEmpty();
        Map<String, AttributeValue> counter = aws.dynamoDb()
                .getItem(b -> b.tableName(config.checkout().revenueTable())
                        .key(Map.of(
                                "pk", AttributeValue.fromS(RevenueAnalyticsConsumer.counterKey("2026-11-29", "EUR"))))
                        .consistentRead(true))
                .item();
        assertThat(Long.parseLong(counter.get("orders").n())).isEqualTo(orders);
        assertThat(Long.parseLong(counter.get("amountMinor").n())).isEqualTo(expected);
    }

    @Test
    void aBusinessRuleViolationIsDeadLetteredAsPermanentAndCountsNothing() {
        SQSBatchResponse response = handler.handleRequest(
                event(List.of(
                        record(OrderEvents.v2("evt-jpy", "o-jpy", 5000, "JPY")),
                        record(OrderEvents.v2("evt-eur", "o-eur", 700, "EUR")))),
                null);

        assertThat(response.getBatchItemFailures()).isEmpty();
        List<Message> dead = aws.sqs()
                .receiveMessage(
                        b -> b.queueUrl(queue.dlqUrl()).waitTimeSeconds(1).messageAttributeNames("All"))
                .messages();
        assertThat(dead).hasSize(1);
        DeadLetterMetadata meta = DeadLetterMetadata.parse(dead.get(0)
                        .messageAttributes()
                        .get(DeadLetterMetadata.ATTRIBUTE)
                        .stringValue())
                .orElseThrow();
        assertThat(meta.failureClass()).isEqualTo("PERMANENT");
        assertThat(meta.errorType()).isEqualTo("UnsupportedCurrency");
        assertThat(meta.idempotencyKey()).isEqualTo("revenue-analytics#evt-jpy");
        assertThat(aws.dynamoDb()
                        .getItem(b -> b.tableName(config.checkout().revenueTable())
                                .key(Map.of(
                                        "pk",
                                        AttributeValue.fromS(
                                                RevenueAnalyticsConsumer.counterKey("2026-11-29", "JPY")))))
                        .hasItem())
                .isFalse();
        var claim = claims.find(
                        new dev.redrive.core.claim.IdempotencyKey("revenue-analytics", "evt-jpy"),
                        java.time.Instant.now())
                .orElseThrow();
        assertThat(claim.lastFailure().classification().errorType()).isEqualTo("UnsupportedCurrency");
    }

    private SQSEvent.SQSMessage record(String body) {
        SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
        r.setMessageId(UUID.randomUUID().toString());
        r.setBody(body);
        r.setEventSourceArn(queue.arn());
        r.setAttributes(Map.of("ApproximateReceiveCount", "1"));
        return r;
    }

    private static SQSEvent event(List<SQSEvent.SQSMessage> records) {
        SQSEvent event = new SQSEvent();
        event.setRecords(new ArrayList<>(records));
        return event;
    }
}
