package dev.redrive.functions.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlaced;
import dev.redrive.checkout.OrderPlacedReader;
import dev.redrive.checkout.placing.CheckoutRequest;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.InMemoryPaymentProvider;
import dev.redrive.checkout.placing.OrderLine;
import dev.redrive.checkout.placing.OutboxEvent;
import dev.redrive.checkout.placing.SqsOutboxPublisher;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.functions.testing.AdjustableClock;
import dev.redrive.localstack.CheckoutTables;
import dev.redrive.localstack.StreamEvents;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The outbox relay on the orders table's real stream (local DynamoDB's, rendered as Lambda delivers it): orders placed
 * by the checkout reach both subscriber queues as OrderPlaced v2 the consumers read, and are marked published; a
 * queue that refuses stops the batch at that record; the scheduled sweep republishes what the relay missed.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class OutboxRelayHandlerTest {

    @Inject
    OutboxRelayHandler relay;

    @Inject
    OutboxSweeperHandler sweeper;

    @Inject
    CheckoutConfig config;

    @Inject
    AdjustableClock clock;

    final LocalAws aws = LocalAws.shared();
    DynamoDbCheckoutStore store;
    List<String> queueUrls;

    @BeforeEach
    void fresh() {
        clock.reset();
        aws.reset();
        String table = config.checkout().ordersTable();
        CheckoutTables.createOrdersTable(aws.dynamoDb(), table);
        store = new DynamoDbCheckoutStore(aws.dynamoDb(), table);
        queueUrls = new ArrayList<>();
        for (String q : config.checkout().outbox().subscriberQueues().orElseThrow()) {
            queueUrls.add(aws.sqs().createQueue(b -> b.queueName(q)).queueUrl());
        }
    }

    @AfterEach
    void clockBack() {
        clock.reset();
    }

    List<OutboxEvent> placeOrders(int n) {
        CheckoutService checkout =
                new CheckoutService(store, new InMemoryPaymentProvider(), CheckoutService.Settings.DEFAULT);
        List<OutboxEvent> events = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String sku = "sku-" + i;
            store.stock(sku, 5, 100 + i, "EUR");
            String key = "k-" + i;
            checkout.place(
                    key,
                    new CheckoutRequest("ada@example.com", List.of(new OrderLine(sku, 1)), "EUR", "tok_visa"),
                    clock.instant(),
                    clock.instant().plusSeconds(30));
            events.addAll(store.outbox(CheckoutService.orderIdOf(key)));
        }
        return events;
    }

    Map<String, Object> streamEvent() {
        String table = config.checkout().ordersTable();
        String arn =
                aws.dynamoDb().describeTable(b -> b.tableName(table)).table().latestStreamArn();
        return StreamEvents.lambdaEvent(StreamEvents.readAll(aws, table), arn);
    }

    List<Message> received(String url) {
        List<Message> all = new ArrayList<>();
        List<Message> page;
        do {
            page = aws.sqs()
                    .receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).messageAttributeNames("All"))
                    .messages();
            all.addAll(page);
        } while (!page.isEmpty());
        return all;
    }

    @Test
    void everyOrderPlacedReachesEverySubscriberOnceAsTheConsumersReadItAndIsMarked() {
        List<OutboxEvent> events = placeOrders(3);

        Map<String, Object> answer = relay.handleRequest(streamEvent(), null);

        assertThat(answer).containsEntry("batchItemFailures", List.of());
        OrderPlacedReader reader = new OrderPlacedReader(new ObjectMapper(), new EventSchemas());
        for (String url : queueUrls) {
            List<Message> got = received(url);
            assertThat(got)
                    .extracting(Message::body)
                    .containsExactlyInAnyOrderElementsOf(
                            events.stream().map(OutboxEvent::payload).toList());
            for (Message m : got) {
                OrderPlaced read = reader.read(
                                new IncomingMessage(m.messageId(), "rh", m.body(), Map.of(), 1, url, null))
                        .event();
                assertThat(m.messageAttributes()
                                .get(SqsOutboxPublisher.ORDER_ID)
                                .stringValue())
                        .isEqualTo(read.orderId());
            }
        }
        for (OutboxEvent e : events) {
            assertThat(store.publishedAt(e.orderId(), e.sequence())).isPresent();
        }
        assertThat(store.unpublished(clock.instant().plusSeconds(60), 10)).isEmpty();
    }

    @Test
    void aQueueThatRefusesStopsTheBatchAtThatRecordAndTheSweepRepublishesLater() {
        List<OutboxEvent> events = placeOrders(2);
        Map<String, Object> batch = streamEvent();
        aws.sqs().deleteQueue(b -> b.queueUrl(queueUrls.get(1)));

        Map<String, Object> answer = relay.handleRequest(batch, null);

        @SuppressWarnings("unchecked")
        List<Map<String, String>> failures = (List<Map<String, String>>) answer.get("batchItemFailures");
        assertThat(failures).hasSize(1);
        String firstOutboxSequence = firstOutboxSequenceNumber(batch);
        assertThat(failures.get(0)).containsEntry("itemIdentifier", firstOutboxSequence);
        assertThat(store.unpublished(clock.instant().plusSeconds(60), 10)).hasSize(2);

        String url = aws.sqs()
                .createQueue(b -> b.queueName(config.checkout()
                        .outbox()
                        .subscriberQueues()
                        .orElseThrow()
                        .get(1)))
                .queueUrl();
        Map<String, Object> tooEarly = sweeper.handleRequest(Map.of(), null);
        clock.jump(Duration.ofMinutes(6));
        Map<String, Object> swept = sweeper.handleRequest(Map.of(), null);

        assertThat(tooEarly).containsEntry("republished", 0);
        assertThat(swept).containsEntry("republished", 2).containsEntry("oldestUnpublishedSeconds", 0L);
        assertThat(received(url))
                .extracting(Message::body)
                .containsExactlyInAnyOrderElementsOf(
                        events.stream().map(OutboxEvent::payload).toList());
    }

    @SuppressWarnings("unchecked")
    private static String firstOutboxSequenceNumber(Map<String, Object> batch) {
        for (Object o : (List<Object>) batch.get("Records")) {
            Map<String, Object> dynamodb = (Map<String, Object>) ((Map<String, Object>) o).get("dynamodb");
            Map<String, Object> keys = (Map<String, Object>) dynamodb.get("Keys");
            if (String.valueOf(((Map<String, Object>) keys.get("sk")).get("S")).startsWith("outbox#")) {
                return (String) dynamodb.get("SequenceNumber");
            }
        }
        throw new AssertionError("no outbox record in the batch");
    }
}
