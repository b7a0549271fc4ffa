package dev.redrive.functions.bench;

import dev.redrive.checkout.placing.CheckoutOutcome;
import dev.redrive.checkout.placing.CheckoutRequest;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.InMemoryPaymentProvider;
import dev.redrive.checkout.placing.OrderLine;
import dev.redrive.checkout.placing.OutboxEvent;
import dev.redrive.checkout.placing.OutboxRelay;
import dev.redrive.checkout.placing.OutboxStreamRecords;
import dev.redrive.checkout.placing.SqsOutboxPublisher;
import dev.redrive.functions.testing.CountedClients;
import dev.redrive.localstack.LocalAws;
import dev.redrive.localstack.LocalResources;
import dev.redrive.localstack.StreamEvents;
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
        LocalResources.createOrdersTable(aws.dynamoDb(), table);
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
        OutboxRelay relay = new OutboxRelay(store, new SqsOutboxPublisher(aws.sqs(), queues));
        List<Long> lags = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean placing = new AtomicBoolean(true);
        String streamArn =
                aws.dynamoDb().describeTable(b -> b.tableName(table)).table().latestStreamArn();
        Thread poller = new Thread(() -> pollAndRelay(aws, streamArn, relay, lags, placing, orders), "stream-poller");
        poller.start();
        long started = System.nanoTime();
        for (int i = 0; i < orders; i++) {
            if (perSecond > 0) {
                long due = started + (long) (i * 1e9 / perSecond);
                long wait = due - System.nanoTime();
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
        double placingSeconds = (System.nanoTime() - started) / 1e9;
        placing.set(false);
        poller.join(Duration.ofMinutes(5).toMillis());
        List<Long> sorted = new ArrayList<>(lags);
        sorted.sort(null);
        System.out.printf(
                Locale.ROOT,
                "%nPublish latency, commit to both consumers' queues, %d orders placed %s in %.1f s "
                        + "(%.0f a second), the stream polled every 250 ms:%n  p50 %d ms, p99 %d ms, max %d ms "
                        + "(%d events published)%n",
                orders,
                perSecond > 0 ? "at most " + perSecond + " a second" : "one after another",
                placingSeconds,
                orders / placingSeconds,
                percentile(sorted, 0.50),
                percentile(sorted, 0.99),
                sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1),
                sorted.size());
        System.exit(0);
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
                boolean any = false;
                for (int s = 0; s < iterators.size(); s++) {
                    String at = iterators.get(s);
                    if (at == null) {
                        continue;
                    }
                    var page = streams.getRecords(b -> b.shardIterator(at).limit(100));
                    iterators.set(s, page.nextShardIterator());
                    List<Record> records = page.records();
                    if (records.isEmpty()) {
                        continue;
                    }
                    any = true;
                    // as the event source mapping invokes the relay: batches of 10 records
                    for (int from = 0; from < records.size(); from += 10) {
                        List<OutboxEvent> events = new ArrayList<>();
                        for (OutboxStreamRecords.Record r : OutboxStreamRecords.read(StreamEvents.lambdaEvent(
                                records.subList(from, Math.min(records.size(), from + 10)), streamArn))) {
                            r.event().ifPresent(events::add);
                        }
                        OutboxRelay.Report report = relay.relay(events, Instant.now());
                        Instant published = Instant.now();
                        events.subList(0, report.published())
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
                Thread.sleep(250);
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
