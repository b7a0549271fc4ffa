package dev.redrive.sweeper.bench;

import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.ledger.QuarantineItems;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.sweeper.SweepRun;
import dev.redrive.sweeper.SweeperMetrics;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * What one sweep run reads from DynamoDB as the active ledger grows, the former way beside the new, on local AWS
 * (moto). The ledger of one route is seeded with N active records (BatchWriteItem, 25 a call: 90% QUARANTINED, 10%
 * REPLAYED, arrived over the last two days, permanent failures, about 1 KB each), counted as a ledger that keeps its
 * counts has them; then each run sweeps {@value #ARRIVALS} new dead letters. "Former" is the run as it was, kept here:
 * the sweep with the oldest unresolved read from every unresolved state, then a {@code Select COUNT} query over
 * {@code byState} for each of the twelve states. "New" is {@link SweepRun} as it is: the figures from the queue's
 * counts item. Counted by an SDK interceptor on the client: read calls (Query, GetItem, BatchGetItem), items DynamoDB
 * evaluated ({@code ScannedCount}: what a query is charged for, whatever it returns), the capacity moto reports
 * ({@code ReturnConsumedCapacity=TOTAL}: moto answers a constant per call, 1 for a Query, 0.5 for a GetItem, not what
 * DynamoDB would charge), write calls, and the time (moto's, no measure of DynamoDB's). Fails on nothing (a benchmark,
 * not a test). Run with {@code ./mvnw -o -q -pl platform/redrive-sweeper exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.redrive.sweeper.bench.SweepReadsBenchmark [-Dexec.args="1000 10000 100000"]} (the modules it
 * needs compiled in the reactor first).
 */
public final class SweepReadsBenchmark {

    private static final int ARRIVALS = 5;
    private static final int ROUNDS = 2;

    private SweepReadsBenchmark() {}

    public static void main(String[] args) {
        List<Integer> sizes = new ArrayList<>();
        for (String a : args.length == 0 ? new String[] {"1000", "10000", "100000"} : args) {
            sizes.add(Integer.parseInt(a));
        }
        LocalAws aws = LocalAws.shared();
        CallCounter counter = new CallCounter();
        DynamoDbClient dynamoDb = DynamoDbClient.builder()
                .endpointOverride(aws.dynamoDbEndpoint())
                .region(aws.region())
                .credentialsProvider(aws.credentials())
                .httpClient(UrlConnectionHttpClient.builder()
                        // moto answers a query on a partition of 100,000 items in more than the default 30 s
                        .socketTimeout(Duration.ofMinutes(10))
                        .build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .addExecutionInterceptor(counter)
                        .build())
                .build();
        List<String> lines = new ArrayList<>();
        for (int n : sizes) {
            String table =
                    "redrive-quarantine-bench-" + UUID.randomUUID().toString().substring(0, 8);
            LocalResources.createQuarantineTable(dynamoDb, table);
            SweeperFixture fx = new SweeperFixture();
            Route route = new Route("scripted", "bench-source", "bench-source-dlq");
            DynamoDbQuarantineLedger ledger = new DynamoDbQuarantineLedger(dynamoDb, table, fx.clock);
            long seeding = System.nanoTime();
            Map<QuarantineState, Long> seeded = seed(dynamoDb, table, route, n, fx.clock.instant());
            double seconds = (System.nanoTime() - seeding) / 1e9;
            System.out.printf(Locale.ROOT, "seeded %,d active records in %.1f s%n", n, seconds);
            if (!ledger.countActiveByState(route.sourceQueue()).equals(seeded)
                    || !ledger.establishCounts(route.sourceQueue(), () -> false)) {
                throw new IllegalStateException("the seeded counts are not the ledger's: the benchmark's layout of the"
                        + " counts item is stale (see LedgerCounts)");
            }
            QuarantineLedger former = formerFigures(ledger, dynamoDb, table);
            Tally formerTally = null;
            Tally newTally = null;
            int arrival = 0;
            for (int round = 0; round < ROUNDS; round++) {
                arrival = arrive(fx, route, arrival);
                counter.reset();
                Sweeper formerSweeper = sweeper(fx, former);
                formerSweeper.sweep(route, "bench", Duration.ofMinutes(10), () -> true);
                for (QuarantineState s : QuarantineState.values()) {
                    former.count(s, route.sourceQueue());
                }
                formerTally = best(formerTally, counter.tally());
                fx.clock.advance(Duration.ofMinutes(1));

                arrival = arrive(fx, route, arrival);
                counter.reset();
                new SweepRun(
                                List.of(route),
                                sweeper(fx, ledger),
                                ledger,
                                fx.dlq,
                                fx.stats,
                                new BreakerHolds(fx.breakers, fx.windows, List.of()),
                                Duration.ofSeconds(5),
                                new SweeperMetrics(new EmfOutput(line -> {})),
                                fx.clock)
                        .run(Duration.ofMinutes(10), "bench");
                newTally = best(newTally, counter.tally());
                fx.clock.advance(Duration.ofMinutes(1));
            }
            lines.add(String.format(
                    Locale.ROOT,
                    "%,d active records (%s; seeded in %.0f s), one run of %d arrivals:",
                    n,
                    ledger.countActiveByState(route.sourceQueue()),
                    seconds,
                    ARRIVALS));
            lines.add(row("", "former", "new", "new/former"));
            lines.add(row("read calls", formerTally.reads, newTally.reads));
            lines.add(row("items evaluated", formerTally.scanned, newTally.scanned));
            lines.add(row("capacity moto reports", formerTally.capacity, newTally.capacity));
            lines.add(row("write calls", formerTally.writes, newTally.writes));
            lines.add(row("ms (moto, best of " + ROUNDS + ")", formerTally.millis, newTally.millis));
            lines.add("");
            System.out.println(String.join(System.lineSeparator(), lines.subList(lines.size() - 8, lines.size())));
            dynamoDb.deleteTable(b -> b.tableName(table));
        }
        System.out.println();
        System.out.println("DynamoDB reads of one sweep run, by active records in the ledger");
        lines.forEach(System.out::println);
        System.exit(0);
    }

    private static Sweeper sweeper(SweeperFixture fx, QuarantineLedger ledger) {
        return Sweeper.builder()
                .deadLetters(fx.dlq)
                .ledger(ledger)
                .leases(fx.leases)
                .consumers(Map.of("scripted", fx.consumer), fx.claims)
                .payloads(fx.payloads)
                .windows(fx.windows)
                .replays(fx.replayService().ledger(ledger).build())
                .stats(fx.stats)
                .archive(fx.archive)
                .settings(fx.settings)
                .clock(fx.clock)
                .replayBatch(100)
                .build();
    }

    private static int arrive(SweeperFixture fx, Route route, int from) {
        for (int i = from; i < from + ARRIVALS; i++) {
            fx.dlq.add(route.deadLetterQueue(), SweeperFixture.redriven("k-new-" + i + "|{\"n\":" + i + "}", 3));
        }
        return from + ARRIVALS;
    }

    /**
     * The ledger as the former run read its figures: a {@code Select COUNT} query over {@code byState} per state,
     * filtered by queue, and the oldest of every unresolved state (the former sweeper read each; here it is told each
     * has records) as a listing of one.
     */
    private static QuarantineLedger formerFigures(QuarantineLedger ledger, DynamoDbClient dynamoDb, String table) {
        return (QuarantineLedger) Proxy.newProxyInstance(
                QuarantineLedger.class.getClassLoader(),
                new Class<?>[] {QuarantineLedger.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "count" -> formerCount(dynamoDb, table, (QuarantineState) args[0], (String) args[1]);
                    case "countActiveByState" -> {
                        Map<QuarantineState, Long> every = new EnumMap<>(QuarantineState.class);
                        for (QuarantineState s : QuarantineState.values()) {
                            every.put(s, 1L);
                        }
                        yield every;
                    }
                    case "oldestActive" ->
                        ledger.inState((QuarantineState) args[0], Optional.of((String) args[1]), 1).stream()
                                .findFirst();
                    default -> {
                        try {
                            yield method.invoke(ledger, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                });
    }

    /** The former count: a count query on {@code byState}, filtered by queue, page by page. */
    private static long formerCount(DynamoDbClient dynamoDb, String table, QuarantineState state, String queue) {
        long total = 0;
        for (var page : dynamoDb.queryPaginator(b -> b.tableName(table)
                .indexName(QuarantineItems.BY_STATE)
                .keyConditionExpression("#state = :state")
                .filterExpression("#queue = :queue")
                .expressionAttributeNames(Map.of("#state", "state", "#queue", "sourceQueue"))
                .expressionAttributeValues(
                        Map.of(":state", AttributeValue.fromS(state.name()), ":queue", AttributeValue.fromS(queue)))
                .select(Select.COUNT))) {
            total += page.count();
        }
        return total;
    }

    /**
     * N active records written 25 to a BatchWriteItem, each marked counted, and the queue's counts item with their
     * counts, as a ledger that kept its counts from the start has them (the layout of {@code LedgerCounts}; checked
     * against the ledger's own reads before any run).
     */
    private static Map<QuarantineState, Long> seed(
            DynamoDbClient dynamoDb, String table, Route route, int n, Instant now) {
        java.util.Random random = new java.util.Random(42);
        Map<QuarantineState, Long> counts = new EnumMap<>(QuarantineState.class);
        List<WriteRequest> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            QuarantineState state = random.nextInt(10) == 0 ? QuarantineState.REPLAYED : QuarantineState.QUARANTINED;
            Instant arrived = now.minusSeconds(60 + random.nextInt(2 * 86_400));
            int type = random.nextInt(12);
            QuarantineRecord r = new QuarantineRecord(
                    String.format(Locale.ROOT, "q-%08d", i),
                    state,
                    new DeadLetterOrigin(
                            route.consumer(),
                            route.sourceQueue(),
                            route.deadLetterQueue(),
                            "m-" + i,
                            route.consumer() + "#k-" + i,
                            arrived),
                    new DeadLetterEvidence(
                            new Classification(
                                    FailureClass.PERMANENT,
                                    "Error" + type,
                                    "reason " + type + ": the dependency refused the request as invalid",
                                    "dependency-" + (type % 3)),
                            arrived.minusSeconds(90),
                            arrived.minusSeconds(30),
                            3),
                    new PayloadLocation.Inline("{\"id\":\"e-" + i + "\",\"amount\":" + (100 + i)
                            + ",\"customer\":{\"name\":\"n-" + i + "\",\"contact\":\"c" + i + "@example.test\"},"
                            + "\"lines\":[{\"sku\":\"s-1\",\"qty\":2},{\"sku\":\"s-2\",\"qty\":1}]}"),
                    Map.of(),
                    0,
                    "arrived",
                    List.of(new AuditEntry(null, state, arrived, Actor.AUTOMATION, "arrived")),
                    1);
            Map<String, AttributeValue> item = new HashMap<>(QuarantineItems.toItem(r));
            item.put("counted", AttributeValue.fromBool(true));
            batch.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(item).build())
                    .build());
            counts.merge(state, 1L, Long::sum);
            if (batch.size() == 25 || i == n - 1) {
                write(dynamoDb, table, batch);
                batch = new ArrayList<>();
            }
        }
        Map<String, AttributeValue> countsItem = new HashMap<>();
        countsItem.put("pk", AttributeValue.fromS("counts#" + route.sourceQueue()));
        countsItem.put("sk", AttributeValue.fromS("counts"));
        counts.forEach((s, c) -> countsItem.put("active_" + s.name(), AttributeValue.fromN(Long.toString(c))));
        countsItem.put("complete", AttributeValue.fromBool(true));
        dynamoDb.putItem(b -> b.tableName(table).item(countsItem));
        return counts;
    }

    private static void write(DynamoDbClient dynamoDb, String table, List<WriteRequest> batch) {
        Map<String, List<WriteRequest>> left = Map.of(table, batch);
        while (!left.isEmpty()) {
            Map<String, List<WriteRequest>> asked = left;
            BatchWriteItemResponse response = dynamoDb.batchWriteItem(b -> b.requestItems(asked));
            left = response.hasUnprocessedItems() ? response.unprocessedItems() : Map.of();
        }
    }

    private static Tally best(Tally a, Tally b) {
        return a == null || b.millis < a.millis ? b : a;
    }

    private static String row(String what, String before, String after, String ratio) {
        return String.format(Locale.ROOT, "  %-26s %14s %14s %13s", what, before, after, ratio);
    }

    private static String row(String what, double before, double after) {
        return row(
                what,
                String.format(Locale.ROOT, "%,.1f", before),
                String.format(Locale.ROOT, "%,.1f", after),
                before == 0 ? "-" : String.format(Locale.ROOT, "%.4f", after / before));
    }

    /** What one run's calls added up to. */
    private record Tally(long reads, long scanned, double capacity, long writes, double millis) {}

    /** Counts every call the client makes, asking each read for its consumed capacity. */
    private static final class CallCounter implements ExecutionInterceptor {
        private long reads;
        private long scanned;
        private double capacity;
        private long writes;
        private long started;

        synchronized void reset() {
            reads = scanned = writes = 0;
            capacity = 0;
            started = System.nanoTime();
        }

        synchronized Tally tally() {
            return new Tally(reads, scanned, capacity, writes, (System.nanoTime() - started) / 1e6);
        }

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            SdkRequest r = context.request();
            if (r instanceof QueryRequest q) {
                return q.toBuilder()
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build();
            }
            if (r instanceof GetItemRequest g) {
                return g.toBuilder()
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build();
            }
            if (r instanceof BatchGetItemRequest g) {
                return g.toBuilder()
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build();
            }
            return r;
        }

        @Override
        public synchronized void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            SdkResponse r = context.response();
            if (r instanceof QueryResponse q) {
                reads++;
                scanned += q.scannedCount() == null ? 0 : q.scannedCount();
                add(q.consumedCapacity());
            } else if (r instanceof GetItemResponse g) {
                reads++;
                scanned++;
                add(g.consumedCapacity());
            } else if (r instanceof BatchGetItemResponse g) {
                reads++;
                g.responses().values().forEach(items -> scanned += items.size());
                if (g.hasConsumedCapacity()) {
                    g.consumedCapacity().forEach(this::add);
                }
            } else {
                writes++;
            }
        }

        private void add(ConsumedCapacity c) {
            if (c != null && c.capacityUnits() != null) {
                capacity += c.capacityUnits();
            }
        }
    }
}
