package dev.redrive.localrun.bench;

import dev.redrive.localrun.scenario.OrderTraffic;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Holds a source queue at a depth: fills it with new orders up to the depth, then tops it up as the consumer takes
 * them (every quarter second, what its visible messages fall short by), so a measurement at depth D runs against D
 * messages waiting, not against a queue being drained.
 */
final class QueueDepth implements AutoCloseable {

    private static final int SENDERS = 4;

    private final SqsClient sqs;
    private final String queueUrl;
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final ExecutorService senders = Executors.newFixedThreadPool(SENDERS, daemon("depth-fill"));
    private final ExecutorService topUp = Executors.newSingleThreadExecutor(daemon("depth-top-up"));
    private volatile int target;
    private volatile boolean running = true;

    QueueDepth(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        topUp.submit(this::keepUp);
    }

    /** Fills the queue to {@code depth} visible messages, then keeps it there; returns once it is filled. */
    void holdAt(int depth) throws Exception {
        target = depth;
        int missing = depth - visible();
        List<Future<?>> fills = new ArrayList<>();
        int per = (missing + SENDERS - 1) / SENDERS;
        for (int i = 0; i < SENDERS && missing > 0; i++) {
            int n = Math.min(per, missing - i * per);
            if (n > 0) {
                fills.add(senders.submit(() -> send(n)));
            }
        }
        for (Future<?> f : fills) {
            f.get(30, TimeUnit.MINUTES);
        }
    }

    /** Messages now visible in the queue (SQS's approximate count). */
    int visible() {
        return Integer.parseInt(sqs.getQueueAttributes(
                        b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                .attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }

    long sent() {
        return sent.get();
    }

    private void keepUp() {
        while (running) {
            try {
                Thread.sleep(250); // a pace, not a wait for a condition: the consumer drains at its own rate
                int short_ = target - visible();
                if (short_ > 0) {
                    send(short_);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (running) {
                    System.err.println("queue depth: " + e.getMessage());
                }
            }
        }
    }

    /** Sends {@code count} new orders, ten to a batch. */
    private void send(int count) {
        for (int done = 0; done < count; ) {
            List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int i = 0; i < 10 && done < count; i++, done++) {
                long n = sequence.incrementAndGet();
                String body =
                        new OrderTraffic.Order("evt-scaling-" + n, "o-scaling-" + n, 500 + n % 50_000, "EUR", 2).body();
                entries.add(SendMessageBatchRequestEntry.builder()
                        .id("m" + i)
                        .messageBody(body)
                        .build());
            }
            var r = sqs.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
            sent.addAndGet(r.successful().size());
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        running = false;
        topUp.shutdownNow();
        senders.shutdownNow();
    }
}
