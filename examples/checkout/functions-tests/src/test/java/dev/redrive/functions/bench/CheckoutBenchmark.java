package dev.redrive.functions.bench;

import dev.redrive.checkout.placing.CheckoutOutcome;
import dev.redrive.checkout.placing.CheckoutRequest;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.InMemoryPaymentProvider;
import dev.redrive.checkout.placing.OrderLine;
import dev.redrive.checkout.placing.Outbox;
import dev.redrive.checkout.placing.OutboxEvent;
import dev.redrive.checkout.placing.OutboxPublisher;
import dev.redrive.checkout.placing.OutboxRelay;
import dev.redrive.checkout.placing.OutboxStreamRecords;
import dev.redrive.checkout.placing.SqsOutboxPublisher;
import dev.redrive.functions.testing.CountedClients;
import dev.redrive.localstack.CheckoutTables;
import dev.redrive.localstack.StreamEvents;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Prints what the checkout costs on local AWS (moto's DynamoDB and its stream, the embedded SQS):
 * <ul>
 *   <li>DynamoDB calls per checkout by path, counted by an SDK interceptor: a new order, a retry's same answer, a
 *       decline, out of stock;</li>
 *   <li>publish latency, commit to both consumers' queues, p50 and p99 over N orders: orders are placed one after
 *       another while a relay polls the orders table's stream every 250 ms (as Lambda polls a stream's shard four
 *       times a second) and publishes through the same OutboxRelay and SqsOutboxPublisher the function runs.</li>
 * </ul>
 * {@code bin/benchmark checkout [orders] [orders per second]} (unpaced by default: as fast as one client places
 * them; a pace shows the latency when the relay is not the bottleneck).
 */
public final class CheckoutBenchmark {

    private CheckoutBenchmark() {}

    public static void main(String[] args) throws Exception {
        int orders = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        double perSecond = args.length > 1 ? Double.parseDouble(args[1]) : 0; // 0: one after another, unpaced
        LocalAws aws = LocalAws.shared();
        CountedClients clients = CountedClients.on(aws);
        String table = "bench-orders-" + UUID.randomUUID();
        CheckoutTables.createOrdersTable(aws.dynamoDb(), table);
        DynamoDbCheckoutStore store = new DynamoDbCheckoutStore(clients.dynamoDb(), table);
        InMemoryPaymentProvider payments = new InMemoryPaymentProvider();
        CheckoutService checkout = new CheckoutService(store, payments, CheckoutService.Settings.DEFAULT);
        store.stock("sku-mug", 1_000_000, 1250, "EUR");
        store.stock("sku-rare", 1, 999, "EUR");

        System.out.println("DynamoDB calls per checkout (SDK interceptor)");
        String key = "k-" + UUID.randomUUID();
        row(
                "new order (201)",
                clients,
                () -> checkout.place(key, request("tok_visa", "sku-mug", 2), now(), deadline()));
        row(
                "retry of it, same answer (201)",
                clients,
                () -> checkout.place(key, request("tok_visa", "sku-mug", 2), now(), deadline()));
        row(
                "declined (402)",
                clients,
                () -> checkout.place(
                        "k-" + UUID.randomUUID(), request("tok_decline_x", "sku-mug", 1), now(), deadline()));
        row(
                "out of stock (409)",
                clients,
                () -> checkout.place("k-" + UUID.randomUUID(), request("tok_visa", "sku-rare", 2), now(), deadline()));

        List<String> queues = new ArrayList<>();
        for (String q : List.of("bench-email-", "bench-revenue-")) {
            String name = q + UUID.randomUUID();
            queues.add(aws.sqs().createQueue(b -> b.queueName(name)).queueUrl());
        }
        SqsOutboxPublisher sqs = new SqsOutboxPublisher(aws.sqs(), queues);
        System.out.printf(
                Locale.ROOT,
                "%nPublish latency, commit to both consumers' queues, %d orders placed %s per relay, the stream polled "
                        + "every 250 ms (at once while it has a backlog), the relay given 10 outbox events at a time:%n",
                orders,
                perSecond > 0 ? "at most " + perSecond + " a second" : "one after another");
        // the baseline: the same relay publishing and marking one event at a time (the interfaces' defaults)
        OutboxPublisher oneByOne = sqs::publish;
        double[] one = publishLatency(aws, clients, oneByOne, false, orders, perSecond);
        double[] batched = publishLatency(aws, clients, sqs, true, orders, perSecond);
        System.out.printf(
                Locale.ROOT,
                "  %-34s p50 %5.0f ms  p99 %5.0f ms  max %5.0f ms  (%.0f orders a second placed)%n",
                "one at a time (baseline)",
                one[0],
                one[1],
                one[2],
                one[3]);
        System.out.printf(
                Locale.ROOT,
                "  %-34s p50 %5.0f ms  p99 %5.0f ms  max %5.0f ms  (%.0f orders a second placed)%n",
                "batched (SendMessageBatch, one mark)",
                batched[0],
                batched[1],
                batched[2],
                batched[3]);
        System.out.printf(
                Locale.ROOT, "  p99 ratio, batched / one at a time: %.2f%n", batched[1] / Math.max(1, one[1]));
        System.exit(0);
    }

    /** Places {@code orders} on a fresh table while a relay publishes them; p50, p99, max (ms) and the order rate. */
    private static double[] publishLatency(
            LocalAws aws,
            CountedClients clients,
            OutboxPublisher publisher,
            boolean batchedMarks,
            int orders,
            double perSecond)
            throws InterruptedException {
        String table = "bench-orders-" + UUID.randomUUID();
        CheckoutTables.createOrdersTable(aws.dynamoDb(), table);
        DynamoDbCheckoutStore store = new DynamoDbCheckoutStore(clients.dynamoDb(), table);
        store.stock("sku-mug", 1_000_000, 1250, "EUR");
        CheckoutService checkout =
                new CheckoutService(store, new InMemoryPaymentProvider(), CheckoutService.Settings.DEFAULT);
        Outbox marks = batchedMarks
                ? store
                : new Outbox() {
                    @Override
                    public void markPublished(String orderId, long sequence, Instant now) {
                        store.markPublished(orderId, sequence, now);
                    }

                    @Override
                    public List<OutboxEvent> unpublished(Instant writtenBefore, int limit) {
                        return store.unpublished(writtenBefore, limit);
                    }

                    @Override
                    public java.util.Optional<Instant> publishedAt(String orderId, long sequence) {
                        return store.publishedAt(orderId, sequence);
                    }
                };
        OutboxRelay relay = new OutboxRelay(marks, publisher);
        List<Long> lags = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean placing = new AtomicBoolean(true);
        String streamArn =
                aws.dynamoDb().describeTable(b -> b.tableName(table)).table().latestStreamArn();
        Thread poller = new Thread(() -> pollAndRelay(aws, streamArn, relay, lags, placing, orders), "stream-poller");
        poller.start();
        long started = System.nanoTime();
        for (int i = 0; i < orders; i++) {
            if (perSecond > 0) {
                long wait = started + (long) (i * 1e9 / perSecond) - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
            }
            CheckoutOutcome o =
                    checkout.place("bench-" + UUID.randomUUID(), request("tok_visa", "sku-mug", 1), now(), deadline());
            if (!(o instanceof CheckoutOutcome.Placed)) {
                throw new IllegalStateException("order " + i + " was not placed: " + o);
            }
        }
        double rate = orders / ((System.nanoTime() - started) / 1e9);
        placing.set(false);
        poller.join(Duration.ofMinutes(5).toMillis());
        List<Long> sorted = new ArrayList<>(lags);
        sorted.sort(null);
        if (sorted.size() < orders) {
            throw new IllegalStateException("only " + sorted.size() + " of " + orders + " events were published");
        }
        return new double[] {percentile(sorted, 0.50), percentile(sorted, 0.99), sorted.get(sorted.size() - 1), rate};
    }

    private static void pollAndRelay(
            LocalAws aws, String streamArn, OutboxRelay relay, List<Long> lags, AtomicBoolean placing, int expected) {
        try (DynamoDbStreamsClient streams = aws.dynamoDbStreams()) {
            List<String> iterators = new ArrayList<>();
            for (var shard : streams.describeStream(b -> b.streamArn(streamArn))
                    .streamDescription()
                    .shards()) {
                iterators.add(streams.getShardIterator(b -> b.streamArn(streamArn)
                                .shardId(shard.shardId())
                                .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                        .shardIterator());
            }
            long idleSince = System.nanoTime();
            while (lags.size() < expected) {
                boolean backlog = false;
                boolean any = false;
                for (int s = 0; s < iterators.size(); s++) {
                    String at = iterators.get(s);
                    if (at == null) {
                        continue;
                    }
                    var page = streams.getRecords(b -> b.shardIterator(at).limit(1000));
                    iterators.set(s, page.nextShardIterator());
                    List<Record> records = page.records();
                    any |= !records.isEmpty();
                    backlog |= records.size() == 1000; // a full page: read on at once, as Lambda does
                    // the mapping's filter keeps the outbox INSERTs; the relay gets them 10 at a time
                    List<OutboxEvent> events = new ArrayList<>();
                    for (OutboxStreamRecords.Record r :
                            OutboxStreamRecords.read(StreamEvents.lambdaEvent(records, streamArn))) {
                        r.event().ifPresent(events::add);
                    }
                    for (int from = 0; from < events.size(); from += OutboxRelay.BATCH) {
                        List<OutboxEvent> batch =
                                events.subList(from, Math.min(events.size(), from + OutboxRelay.BATCH));
                        OutboxRelay.Report report = relay.relay(batch, Instant.now());
                        Instant published = Instant.now();
                        batch.subList(0, report.published())
                                .forEach(e -> lags.add(Duration.between(e.createdAt(), published)
                                        .toMillis()));
                    }
                }
                if (any) {
                    idleSince = System.nanoTime();
                } else if (!placing.get()
                        && System.nanoTime() - idleSince
                                > Duration.ofSeconds(20).toNanos()) {
                    return;
                }
                if (!backlog) {
                    Thread.sleep(250);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int i = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }

    private static void row(String path, CountedClients clients, Runnable checkout) {
        clients.reset();
        checkout.run();
        Map<String, Integer> calls = new TreeMap<>(clients.dynamoDbCalls().snapshot());
        System.out.printf(
                Locale.ROOT, "  %-34s %2d  %s%n", path, clients.dynamoDbCalls().total(), calls);
    }

    private static CheckoutRequest request(String token, String sku, int quantity) {
        return new CheckoutRequest("ada@example.com", List.of(new OrderLine(sku, quantity)), "EUR", token);
    }

    private static Instant now() {
        return Instant.now();
    }

    private static Instant deadline() {
        return Instant.now().plusSeconds(30);
    }
}
