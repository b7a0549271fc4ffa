package dev.redrive.checkout.placing;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Publishes outbox events by sending each to every subscriber's SQS queue directly (the fan-out the template names:
 * one queue per consumer). The body is the event's payload as written; attributes {@value #EVENT_TYPE},
 * {@value #ORDER_ID} and {@value #SEQUENCE} (a Number) say what it is and where it falls among its order's events.
 * One SendMessage per queue; a queue that refuses fails the publish, which is then repeated whole (the queues that
 * took it get a duplicate, which their consumers absorb).
 */
public final class SqsOutboxPublisher implements OutboxPublisher {

    public static final String EVENT_TYPE = "redrive-event-type";
    public static final String ORDER_ID = "redrive-order-id";
    public static final String SEQUENCE = "redrive-sequence";

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
        Map<String, MessageAttributeValue> attributes = Map.of(
                EVENT_TYPE, text(event.eventType()),
                ORDER_ID, text(event.orderId()),
                SEQUENCE,
                        MessageAttributeValue.builder()
                                .dataType("Number")
                                .stringValue(Long.toString(event.sequence()))
                                .build());
        for (String url : queueUrls) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(event.payload()).messageAttributes(attributes));
        }
    }

    private static MessageAttributeValue text(String value) {
        return MessageAttributeValue.builder()
                .dataType("String")
                .stringValue(value)
                .build();
    }
}
