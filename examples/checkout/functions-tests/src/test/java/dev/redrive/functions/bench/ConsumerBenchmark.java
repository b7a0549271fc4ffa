package dev.redrive.functions.bench;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.checkout.OrderEvents;
import dev.redrive.functions.testing.ConsumerRig;
import dev.redrive.functions.testing.CountingConsumer;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Prints what the consumer costs, on local AWS: AWS calls per message by path (counted by an SDK interceptor), and
 * the wall time of a batch of 10 records with a 50 ms effect, processed concurrently and one at a time, measured
 * side by side (interleaved rounds) in one run. Run with {@code bin/benchmark}.
 */
public final class ConsumerBenchmark {

    private ConsumerBenchmark() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        LocalAws aws = LocalAws.shared();
        System.out.println("Redrive consumer benchmark — local AWS: " + aws.describe());
        System.out.println();
        apiCalls(aws);
        System.out.println();
        wallTime(aws, rounds);
        System.exit(0);
    }

    static void apiCalls(LocalAws aws) {
        System.out.println("AWS calls per message (SDK interceptor; '!' = a refused call)");
        System.out.println(String.format(Locale.ROOT, "  %-46s %-40s %s", "path", "DynamoDB", "SQS"));
        try (ConsumerRig rig = new ConsumerRig(aws, 10)) {
            CountingConsumer external = new CountingConsumer();
            String body = "{\"key\":\"k-" + UUID.randomUUID() + "\"}";
            rig.clients.reset();
            rig.process(external, List.of(rig.message(body)));
            row("new message, external effect", rig);
            rig.clients.reset();
            rig.process(external, List.of(rig.message(body)));
            row("completed duplicate", rig);
            rig.clients.reset();
            rig.process(
                    rig.revenueConsumer(),
                    List.of(rig.message(OrderEvents.v2("evt-" + UUID.randomUUID(), "o", 10, "EUR"))));
            row("new message, DynamoDB effect (transaction)", rig);
            List<IncomingMessage> ten = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                ten.add(rig.message("{\"key\":\"b-" + UUID.randomUUID() + "\"}"));
            }
            rig.clients.reset();
            rig.process(external, ten);
            row("batch of 10, all succeed (whole batch)", rig);
            rig.directory.url(rig.queue.arn()); // the queue URL is resolved once per container
            List<IncomingMessage> mixed = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String key = (i % 3 == 0 ? "always-fail-" : "ok-") + UUID.randomUUID();
                rig.aws.sqs().sendMessage(b -> b.queueUrl(rig.queue.url()).messageBody("{\"key\":\"" + key + "\"}"));
            }
            for (var m : rig.aws
                    .sqs()
                    .receiveMessage(b ->
                            b.queueUrl(rig.queue.url()).maxNumberOfMessages(10).waitTimeSeconds(1))
                    .messages()) {
                mixed.add(new IncomingMessage(
                        m.messageId(), m.receiptHandle(), m.body(), Map.of(), 1, rig.queue.arn(), null));
            }
            rig.clients.reset();
            rig.process(external, mixed);
            row("batch of " + mixed.size() + ", 4 fail TRANSIENT (whole batch)", rig);
        }
    }

    private static void row(String path, ConsumerRig rig) {
        System.out.println(String.format(
                Locale.ROOT,
                "  %-46s %-40s %s",
                path,
                rig.clients.dynamoDbCalls().snapshot(),
                rig.clients.sqsCalls().snapshot().isEmpty()
                        ? "{} (none)"
                        : rig.clients.sqsCalls().snapshot()));
    }

    static void wallTime(LocalAws aws, int rounds) {
        System.out.println("Wall time of a batch of 10 records, 50 ms effect each, and of a single record (" + rounds
                + " interleaved rounds after 2 warm-ups)");
        try (ConsumerRig concurrent = new ConsumerRig(aws, 10);
                ConsumerRig sequential = new ConsumerRig(aws, 1)) {
            CountingConsumer slow = new CountingConsumer();
            slow.effectDuration(Duration.ofMillis(50));
            long[] c = new long[rounds];
            long[] s = new long[rounds];
            long[] one = new long[rounds];
            long[] inDynamoDb = new long[rounds];
            for (int r = -2; r < rounds; r++) {
                concurrent.clients.reset();
                long tc = time(concurrent, slow, 10);
                long dc = concurrent.clients.dynamoDbCalls().millis().values().stream()
                        .mapToLong(Long::longValue)
                        .sum();
                long ts = time(sequential, slow, 10);
                long t1 = time(concurrent, slow, 1);
                if (r >= 0) {
                    c[r] = tc;
                    s[r] = ts;
                    one[r] = t1;
                    inDynamoDb[r] = dc;
                }
            }
            Arrays.sort(c);
            Arrays.sort(s);
            Arrays.sort(one);
            Arrays.sort(inDynamoDb);
            double medianC = c[rounds / 2] / 1e6;
            double medianS = s[rounds / 2] / 1e6;
            double medianOne = one[rounds / 2] / 1e6;
            line("concurrent (10 threads)", c, rounds);
            line("one at a time", s, rounds);
            line("a single record", one, rounds);
            System.out.println(String.format(
                    Locale.ROOT,
                    "  speed-up (median one-at-a-time / median concurrent): " + "%.1fx",
                    medianS / medianC));
            System.out.println(String.format(
                    Locale.ROOT,
                    "  batch of 10 concurrent / a single record: %.2fx (median %.1f ms vs %.1f ms)",
                    medianC / medianOne,
                    medianC,
                    medianOne));
            System.out.println(String.format(
                    Locale.ROOT,
                    "  time inside DynamoDB calls per concurrent batch of 10 (summed over threads): median %d ms",
                    inDynamoDb[rounds / 2]));
        }
    }

    private static void line(String what, long[] sorted, int rounds) {
        System.out.println(String.format(
                Locale.ROOT,
                "  %-24s median %7.1f ms   min %7.1f ms   max %7.1f ms",
                what,
                sorted[rounds / 2] / 1e6,
                sorted[0] / 1e6,
                sorted[rounds - 1] / 1e6));
    }

    private static long time(ConsumerRig rig, CountingConsumer consumer, int records) {
        List<IncomingMessage> batch = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            batch.add(rig.message("{\"key\":\"w-" + UUID.randomUUID() + "\"}"));
        }
        long start = System.nanoTime();
        var report = rig.process(consumer, batch);
        long elapsed = System.nanoTime() - start;
        if (!report.failedMessageIds().isEmpty()) {
            throw new IllegalStateException("benchmark batch failed: " + report.countsByOutcome());
        }
        return elapsed;
    }
}
