package dev.redrive.checkout.placing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Publishes outbox events by sending each to every subscriber's SQS queue directly (the fan-out the template names:
 * one queue per consumer). The body is the event's payload as written; attributes {@value #EVENT_TYPE},
 * {@value #ORDER_ID} and {@value #SEQUENCE} (a Number) say what it is and where it falls among its order's events.
 * One SendMessage per queue for one event, one SendMessageBatch per queue for up to 10 ({@link #publishAll}, split
 * further only past SQS's 1 MiB per batch); a queue that refuses fails the publish from that event on, which is then
 * repeated (the queues that took it get a duplicate, which their consumers absorb).
 */
public final class SqsOutboxPublisher implements OutboxPublisher {

    public static final String EVENT_TYPE = "redrive-event-type";
    public static final String ORDER_ID = "redrive-order-id";
    public static final String SEQUENCE = "redrive-sequence";

    /** The most bytes one SendMessageBatch carries here: under SQS's 1 MiB, with room for the attributes. */
    private static final long BATCH_BYTES = 1_000_000;
    /** What an entry's attributes and envelope add to its payload, counted generously. */
    private static final long ENTRY_OVERHEAD = 200;

    private final SqsClient sqs;
    private final List<String> queueUrls;

    public SqsOutboxPublisher(SqsClient sqs, List<String> queueUrls) {
        if (queueUrls.isEmpty()) {
            throw new IllegalArgumentException("an outbox publisher needs at least one subscriber queue");
        }
        this.sqs = sqs;
        this.queueUrls = List.copyOf(queueUrls);
    }

    @Override
    public void publish(OutboxEvent event) {
        Map<String, MessageAttributeValue> attributes = attributes(event);
        for (String url : queueUrls) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(event.payload()).messageAttributes(attributes));
        }
    }

    @Override
    public Published publishAll(List<OutboxEvent> events) {
        if (events.size() > 10) {
            throw new IllegalArgumentException("a batch holds at most 10 events, not " + events.size());
        }
        int taken = events.size();
        String failure = null;
        for (String url : queueUrls) {
            List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
            long bytes = 0;
            for (int i = 0; i < events.size(); i++) {
                OutboxEvent e = events.get(i);
                long size = e.payload().getBytes(StandardCharsets.UTF_8).length + ENTRY_OVERHEAD;
                if (!batch.isEmpty() && bytes + size > BATCH_BYTES) {
                    int refused = send(url, batch);
                    if (refused >= 0 && refused < taken) {
                        taken = refused;
                        failure = "SendMessageBatch refused entry " + refused;
                    }
                    batch = new ArrayList<>();
                    bytes = 0;
                }
                batch.add(SendMessageBatchRequestEntry.builder()
                        .id(Integer.toString(i))
                        .messageBody(e.payload())
                        .messageAttributes(attributes(e))
                        .build());
                bytes += size;
            }
            int refused = send(url, batch);
            if (refused >= 0 && refused < taken) {
                taken = refused;
                failure = "SendMessageBatch refused entry " + refused;
            }
        }
        return new Published(taken, failure);
    }

    /** Sends one batch; the index of the first entry refused, or -1 when every entry was taken. */
    private int send(String url, List<SendMessageBatchRequestEntry> batch) {
        List<SendMessageBatchRequestEntry> entries = List.copyOf(batch);
        return sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries)).failed().stream()
                .mapToInt(f -> Integer.parseInt(f.id()))
                .min()
                .orElse(-1);
    }

    private static Map<String, MessageAttributeValue> attributes(OutboxEvent event) {
        return Map.of(
                EVENT_TYPE, text(event.eventType()),
                ORDER_ID, text(event.orderId()),
                SEQUENCE,
                        MessageAttributeValue.builder()
                                .dataType("Number")
                                .stringValue(Long.toString(event.sequence()))
                                .build());
    }

    private static MessageAttributeValue text(String value) {
        return MessageAttributeValue.builder()
                .dataType("String")
                .stringValue(value)
                .build();
    }
}
