package dev.redrive.localrun.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Messages sent straight to the consumers' queues, for what does not come from the checkout: another producer's events
 * (the pre-migration v1, a currency the consumers refuse), SQS delivering a message again, malformed bodies. Remembers
 * every order sent (and those the checkout placed, {@link #record}) so the run can be reconciled.
 */
public final class OrderTraffic {

    /** One order as sent. */
    public record Order(String eventId, String orderId, long amountMinor, String currency, int version) {
        public String body() {
            if (version == 1) {
                return String.format(
                        Locale.ROOT,
                        "{\"eventType\":\"OrderPlaced\",\"version\":1,\"eventId\":\"%s\","
                                + "\"orderId\":\"%s\",\"customerEmail\":\"%s@example.com\",\"totalCents\":%d,"
                                + "\"currency\":\"%s\",\"placedAt\":\"2026-11-29T10:15:30Z\"}",
                        eventId,
                        orderId,
                        orderId,
                        amountMinor,
                        currency);
            }
            return String.format(
                    Locale.ROOT,
                    "{\"eventType\":\"OrderPlaced\",\"version\":2,\"eventId\":\"%s\","
                            + "\"orderId\":\"%s\",\"customer\":{\"email\":\"%s@example.com\"},\"total\":{\"amountMinor\":%d,"
                            + "\"currency\":\"%s\"},\"placedAt\":\"2026-11-29T10:15:30Z\",\"channel\":\"web\"}",
                    eventId,
                    orderId,
                    orderId,
                    amountMinor,
                    currency);
        }
    }

    private final SqsClient sqs;
    private final Random random;
    private final Map<String, Order> sent = new ConcurrentHashMap<>();
    private final AtomicLong deliveries = new AtomicLong();
    private final AtomicLong sequence = new AtomicLong();

    public OrderTraffic(SqsClient sqs, long seed) {
        this.sqs = sqs;
        this.random = new Random(seed);
    }

    /** New orders, {@code legacy} of them in the pre-migration version. */
    public synchronized List<Order> newOrders(int count, int legacy, String label) {
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long n = sequence.incrementAndGet();
            orders.add(new Order(
                    "evt-" + label + "-" + n, "o-" + n, 500 + random.nextInt(50_000), "EUR", i < legacy ? 1 : 2));
        }
        return orders;
    }

    /** Sends every order once to each queue. */
    public void send(List<Order> orders, List<String> queueUrls) {
        send(orders, queueUrls, 1);
    }

    /** Sends every order 1..{@code maxCopies} times (new message ids each time), shuffled, to each queue. */
    public void send(List<Order> orders, List<String> queueUrls, int maxCopies) {
        List<Order> deliveriesToMake = new ArrayList<>();
        synchronized (this) {
            for (Order o : orders) {
                int copies = maxCopies <= 1 ? 1 : 1 + random.nextInt(maxCopies);
                for (int c = 0; c < copies; c++) {
                    deliveriesToMake.add(o);
                }
                sent.put(o.eventId(), o);
            }
            Collections.shuffle(deliveriesToMake, random);
        }
        for (String url : queueUrls) {
            for (int from = 0; from < deliveriesToMake.size(); from += 10) {
                List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
                List<Order> chunk = deliveriesToMake.subList(from, Math.min(deliveriesToMake.size(), from + 10));
                for (int i = 0; i < chunk.size(); i++) {
                    entries.add(SendMessageBatchRequestEntry.builder()
                            .id("m" + i)
                            .messageBody(chunk.get(i).body())
                            .build());
                }
                var r = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries));
                if (!r.failed().isEmpty()) {
                    throw new IllegalStateException(
                            "the producer could not send " + r.failed().size() + " orders: "
                                    + r.failed().get(0).message());
                }
                deliveries.addAndGet(chunk.size());
            }
        }
    }

    /**
     * Remembers orders another path sent (the checkout's outbox relay, once to each of {@code subscribers} queues),
     * for the reconciliation.
     */
    public void record(List<Order> orders, int subscribers) {
        orders.forEach(o -> sent.put(o.eventId(), o));
        deliveries.addAndGet((long) orders.size() * subscribers);
    }

    public Map<String, Order> sent() {
        return Map.copyOf(sent);
    }

    public long deliveries() {
        return deliveries.get();
    }
}
