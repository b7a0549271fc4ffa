package dev.redrive.localrun.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.localrun.eventsource.AwsTrafficProxy;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * The copies of what the relay publishes, through a proxy on local SQS: each event is delivered 1..C times in all,
 * every copy the original's body and attributes (types kept) under a new message id, as many copies as the seed draws
 * for that event and queue, and none more when the relay publishes the same event again.
 */
class RedeliveryTest {

    private static final int MAX_COPIES = 3;

    private final LocalAws aws = LocalAws.shared();
    private final SqsClient sqs = aws.sqs();
    private AwsTrafficProxy proxy;
    private SqsClient relay;
    private Redelivery redelivery;
    private String queue;

    @BeforeEach
    void start() throws Exception {
        queue = sqs.createQueue(b -> b.queueName("redelivery-" + UUID.randomUUID()))
                .queueUrl();
        redelivery = new Redelivery(sqs, new MessageTracker(), 42, MAX_COPIES, Duration.ofMillis(300), 2);
        proxy = new AwsTrafficProxy("sqs", aws.sqsEndpoint());
        proxy.hook(redelivery.hook());
        relay = aws.sqsThrough(proxy.endpoint());
    }

    @AfterEach
    void stop() {
        redelivery.close();
        proxy.close();
    }

    @Test
    void eachEventIsDeliveredAsOftenAsTheSeedDrawsEveryCopyTheOriginal() {
        List<String> events = IntStream.range(0, 30).mapToObj(i -> "evt-" + i).toList();
        for (int from = 0; from < events.size(); from += 10) {
            publish(events.subList(from, from + 10));
        }
        publish(events.subList(0, 10)); // the relay publishes the first ten again: no more copies of those

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> redelivery.pending() == 0);
        Map<String, List<Message>> byEvent = receiveAll();

        Set<Integer> copyCounts = new HashSet<>();
        for (String e : events) {
            int copies = redelivery.copiesOf(e, queue);
            copyCounts.add(copies);
            int republished = events.indexOf(e) < 10 ? 1 : 0;
            assertThat(byEvent.get(e)).as(e).hasSize(1 + copies + republished);
            assertThat(byEvent.get(e).stream().map(Message::messageId).distinct())
                    .as("every delivery of %s a new message", e)
                    .hasSize(1 + copies + republished);
            for (Message m : byEvent.get(e)) {
                assertThat(m.body()).isEqualTo(body(e));
                assertThat(m.messageAttributes()).isEqualTo(attributes(e));
            }
        }
        assertThat(copyCounts).as("copies drawn: 0..C-1, each seen").containsExactlyInAnyOrder(0, 1, 2);
        assertThat(redelivery.publishedEvents(queue)).containsExactlyInAnyOrderElementsOf(events);
        assertThat(redelivery.figures())
                .containsEntry("published by the relay", 40L)
                .containsEntry("copies not delivered", 0L);
    }

    @Test
    void theSameSeedDrawsTheSameCopies() {
        Redelivery again = new Redelivery(sqs, new MessageTracker(), 42, MAX_COPIES, Duration.ZERO, 1);
        Redelivery other = new Redelivery(sqs, new MessageTracker(), 43, MAX_COPIES, Duration.ZERO, 1);
        try {
            List<Integer> mine = IntStream.range(0, 50)
                    .mapToObj(i -> redelivery.copiesOf("evt-" + i, queue))
                    .toList();
            assertThat(IntStream.range(0, 50).mapToObj(i -> again.copiesOf("evt-" + i, queue)))
                    .containsExactlyElementsOf(mine);
            assertThat(IntStream.range(0, 50).mapToObj(i -> other.copiesOf("evt-" + i, queue)))
                    .isNotEqualTo(mine);
        } finally {
            again.close();
            other.close();
        }
    }

    private void publish(List<String> events) {
        List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            entries.add(SendMessageBatchRequestEntry.builder()
                    .id("e" + i)
                    .messageBody(body(events.get(i)))
                    .messageAttributes(attributes(events.get(i)))
                    .build());
        }
        assertThat(relay.sendMessageBatch(b -> b.queueUrl(queue).entries(entries))
                        .failed())
                .isEmpty();
    }

    private Map<String, List<Message>> receiveAll() {
        Map<String, List<Message>> byEvent = new HashMap<>();
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(queue)
                            .maxNumberOfMessages(10)
                            .messageAttributeNames("All")
                            .waitTimeSeconds(0))
                    .messages();
            if (batch.isEmpty()) {
                return byEvent;
            }
            for (Message m : batch) {
                String event = m.body().replaceAll(".*\"eventId\":\"([^\"]+)\".*", "$1");
                byEvent.computeIfAbsent(event, k -> new ArrayList<>()).add(m);
            }
        }
    }

    private static String body(String event) {
        return "{\"eventType\":\"OrderPlaced\",\"eventId\":\"" + event + "\"}";
    }

    private static Map<String, MessageAttributeValue> attributes(String event) {
        return Map.of(
                "eventType",
                MessageAttributeValue.builder()
                        .dataType("String")
                        .stringValue("OrderPlaced")
                        .build(),
                "sequence",
                MessageAttributeValue.builder()
                        .dataType("Number")
                        .stringValue("1")
                        .build(),
                "digest",
                MessageAttributeValue.builder()
                        .dataType("Binary")
                        .binaryValue(SdkBytes.fromUtf8String(event))
                        .build());
    }
}
