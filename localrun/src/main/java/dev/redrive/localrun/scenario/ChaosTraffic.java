package dev.redrive.localrun.scenario;

import dev.redrive.localrun.chaos.MessageTracker;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * The chaos run's checkout producers: every order is delivered 1..C times to each consumer's queue, each delivery a
 * new message (a new message id), and the deliveries are dealt out, shuffled, to several producers sending at once,
 * so copies of one order come from different producers at different times. A small share of the orders is in a
 * currency the revenue report refuses. Everything is drawn from the seed.
 *
 * <p>The producers send while a queue holds fewer visible messages than the backlog bound and wait while it holds
 * more, so orders arrive as the consumers take them (see {@code ChaosOptions.backlog}). The wait is pacing, not
 * timing: nothing is checked against it.
 */
final class ChaosTraffic {

    /** The currency the revenue consumer refuses (PERMANENT: it dead-letters at once). */
    static final String REJECTED_CURRENCY = "JPY";

    private record Delivery(Order order, String queueUrl) {}

    private final SqsClient sqs;
    private final MessageTracker tracker;
    private final List<Order> orders = new ArrayList<>();
    private final List<List<Delivery>> shares = new ArrayList<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong paced = new AtomicLong();
    private final int deliveries;
    private final int backlog;
    private final Map<String, Depth> depths = new ConcurrentHashMap<>();

    /** A queue's visible messages as last read; the producers share one read per queue every {@link #FRESH_MS}. */
    private record Depth(long visible, long readAtMs) {}

    private static final long FRESH_MS = 250;

    ChaosTraffic(
            SqsClient sqs,
            MessageTracker tracker,
            long seed,
            int count,
            int maxCopies,
            int producers,
            int backlog,
            double rejectedShare,
            List<String> queueUrls) {
        this.sqs = sqs;
        this.tracker = tracker;
        this.backlog = backlog;
        Random random = new Random(seed);
        List<Delivery> all = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            boolean rejected = random.nextDouble() < rejectedShare;
            Order o = new Order(
                    "evt-chaos-" + i, "o-" + i, 500 + random.nextInt(50_000), rejected ? REJECTED_CURRENCY : "EUR", 2);
            orders.add(o);
            for (String url : queueUrls) {
                int copies = 1 + random.nextInt(maxCopies);
                for (int c = 0; c < copies; c++) {
                    all.add(new Delivery(o, url));
                }
            }
        }
        Collections.shuffle(all, random);
        for (int p = 0; p < producers; p++) {
            shares.add(new ArrayList<>());
        }
        for (int i = 0; i < all.size(); i++) {
            shares.get(i % producers).add(all.get(i));
        }
        this.deliveries = all.size();
    }

    List<Order> orders() {
        return orders;
    }

    int deliveries() {
        return deliveries;
    }

    long sent() {
        return sent.get();
    }

    /** How many times a producer waited for a queue's backlog to fall under the bound. */
    long pacedWaits() {
        return paced.get();
    }

    /** Starts every producer; the future completes when all have sent everything. */
    CompletableFuture<Void> start() {
        ExecutorService producers = Executors.newFixedThreadPool(shares.size(), r -> {
            Thread t = new Thread(r, "chaos-producer");
            t.setDaemon(true);
            return t;
        });
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (List<Delivery> share : shares) {
            running.add(CompletableFuture.runAsync(() -> send(share), producers));
        }
        producers.shutdown();
        return CompletableFuture.allOf(running.toArray(CompletableFuture[]::new));
    }

    private void send(List<Delivery> share) {
        for (int from = 0; from < share.size(); from += 10) {
            List<Delivery> chunk = share.subList(from, Math.min(share.size(), from + 10));
            // one batch per queue (SendMessageBatch addresses one queue)
            for (String url : chunk.stream().map(Delivery::queueUrl).distinct().toList()) {
                List<Delivery> mine =
                        chunk.stream().filter(d -> d.queueUrl().equals(url)).toList();
                List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
                for (int i = 0; i < mine.size(); i++) {
                    entries.add(SendMessageBatchRequestEntry.builder()
                            .id("m" + i)
                            .messageBody(mine.get(i).order().body())
                            .build());
                }
                sendBatch(url, entries);
            }
        }
    }

    /** Waits while {@code url} holds at least the backlog bound of visible messages. */
    private void awaitRoom(String url) {
        boolean waited = false;
        while (visible(url) >= backlog) {
            if (!waited) {
                paced.incrementAndGet();
                waited = true;
            }
            try {
                Thread.sleep(FRESH_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the producer was interrupted", e);
            }
        }
    }

    private long visible(String url) {
        long now = System.currentTimeMillis();
        Depth d = depths.compute(
                url,
                (u, last) -> last != null && now - last.readAtMs() < FRESH_MS
                        ? last
                        : new Depth(
                                Long.parseLong(sqs.getQueueAttributes(b -> b.queueUrl(u)
                                                .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                                        .attributes()
                                        .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)),
                                now));
        return d.visible();
    }

    private void sendBatch(String url, List<SendMessageBatchRequestEntry> entries) {
        awaitRoom(url);
        List<SendMessageBatchRequestEntry> left = entries;
        for (int attempt = 0; !left.isEmpty(); attempt++) {
            List<SendMessageBatchRequestEntry> sending = left;
            var r = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(sending));
            long now = System.currentTimeMillis();
            r.successful().forEach(ok -> tracker.sent(url, ok.messageId(), now));
            sent.addAndGet(r.successful().size());
            List<String> failed = r.failed().stream().map(f -> f.id()).toList();
            left = sending.stream().filter(e -> failed.contains(e.id())).toList();
            if (attempt > 5 && !left.isEmpty()) {
                throw new IllegalStateException("the producer could not send " + left.size() + " orders: "
                        + r.failed().get(0).message());
            }
        }
    }
}
