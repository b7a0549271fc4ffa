package dev.redrive.localrun.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.checkout.EmailOutbox;
import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The emulators alone, driven straight from this JVM with no sandbox, poller or proxy in between, for comparison with
 * the consumer's throughput: moto with the email consumer's calls for a new message (its claim's conditional PutItem,
 * the email's create-only S3 PUT, the completion's UpdateItem; the same adapter classes the function runs), and
 * ElasticMQ with the event-source mapping's calls for a batch (a ReceiveMessage of ten, one DeleteMessageBatch).
 */
final class EmulatorAlone {

    /** Messages and calls a second at one number of threads, and the cores moto and the whole machine used. */
    record Rate(int threads, long messages, double seconds, long calls, CpuMeter.Use cpu) {
        double messagesPerSecond() {
            return messages / seconds;
        }

        double callsPerSecond() {
            return calls / seconds;
        }
    }

    private final LocalAws aws;
    private final CpuMeter cpu;
    private final String claimsTable;
    private final String outboxBucket;
    private final AtomicLong sequence = new AtomicLong();

    EmulatorAlone(LocalAws aws, String claimsTable, String outboxBucket) {
        this.aws = aws;
        this.cpu = new CpuMeter(aws.motoPid());
        this.claimsTable = claimsTable;
        this.outboxBucket = outboxBucket;
    }

    /** moto: {@code threads} threads each applying new messages the way the email consumer does, for {@code time}. */
    Rate moto(int threads, Duration time) throws Exception {
        DynamoDbClaimStore claims = new DynamoDbClaimStore(aws.dynamoDb(), claimsTable);
        EmailOutbox outbox = new S3EmailOutbox(aws.s3(), outboxBucket, new ObjectMapper());
        return run(threads, time, () -> {
            long n = sequence.incrementAndGet();
            Instant now = Instant.now();
            IdempotencyKey key = new IdempotencyKey("confirmation-email", "evt-emulator-" + n);
            ClaimOutcome outcome = claims.claim(
                    new ClaimRequest(
                            key,
                            "h" + n,
                            now.plusSeconds(30),
                            now.plus(Duration.ofDays(2)),
                            new MessageOrigin("emulator", "m" + n)),
                    now);
            if (!(outcome instanceof ClaimOutcome.Acquired acquired)) {
                throw new IllegalStateException("a new key was not acquired: " + outcome);
            }
            outbox.send(new EmailOutbox.Email(
                    key.toString(),
                    acquired.fencingToken(),
                    "o" + n + "@example.com",
                    "Your order",
                    "Thank you for order o" + n,
                    Duration.ofSeconds(10)));
            claims.complete(key, acquired.fencingToken(), "sent", Instant.now());
            return new long[] {1, 3};
        });
    }

    /**
     * ElasticMQ: {@code threads} threads each receiving ten messages from {@code queueUrl} (kept full by the caller)
     * and deleting them in one batch, for {@code time}.
     */
    Rate elasticMq(int threads, Duration time, String queueUrl) throws Exception {
        return run(threads, time, () -> {
            List<Message> got = aws.sqs()
                    .receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10))
                    .messages();
            if (got.isEmpty()) {
                return new long[] {0, 1};
            }
            List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int i = 0; i < got.size(); i++) {
                entries.add(DeleteMessageBatchRequestEntry.builder()
                        .id("d" + i)
                        .receiptHandle(got.get(i).receiptHandle())
                        .build());
            }
            aws.sqs().deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
            return new long[] {got.size(), 2};
        });
    }

    /** One unit of work: returns {messages, calls}. */
    @FunctionalInterface
    private interface Unit {
        long[] run() throws Exception;
    }

    private Rate run(int threads, Duration time, Unit unit) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicLong messages = new AtomicLong();
        AtomicLong calls = new AtomicLong();
        CpuMeter.Reading before = cpu.read(List.of());
        long end = System.nanoTime() + time.toNanos();
        long t0 = System.nanoTime();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                workers.add(pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        long[] done = unit.run();
                        messages.addAndGet(done[0]);
                        calls.addAndGet(done[1]);
                    }
                    return null;
                }));
            }
            for (Future<?> w : workers) {
                w.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return new Rate(
                threads,
                messages.get(),
                (System.nanoTime() - t0) / 1e9,
                calls.get(),
                cpu.read(List.of()).since(before));
    }
}
