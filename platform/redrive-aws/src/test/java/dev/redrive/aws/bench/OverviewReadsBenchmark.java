package dev.redrive.aws.bench;

import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.operator.RouteStatus;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.Route;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * What the console's overview costs DynamoDB for one route, before and after the ledger's narrow reads, with N dead
 * letters of the route in the ledger on local AWS (moto): the route's status (counts by state, arrivals over 24 hours,
 * the oldest unresolved) and the arrivals chart's records over the same 24 hours. "Before" is the former computation,
 * kept here: every record of the queue read back, once for the status and once for the chart. Counted by an SDK
 * interceptor on the client: calls, items DynamoDB evaluated ({@code ScannedCount}: what a query is charged for,
 * whatever it returns), items and bytes returned, the capacity reported ({@code ReturnConsumedCapacity=TOTAL}; moto
 * answers a constant per call, not what DynamoDB would charge, so an estimate from the items evaluated and their
 * average size is printed beside it), and the time taken (moto's, which is no measure of DynamoDB's). Fails on nothing
 * (a benchmark, not a test). Run with
 * {@code ./mvnw -o -q -pl platform/redrive-aws exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.redrive.aws.bench.OverviewReadsBenchmark [-Dexec.args="1000 10000"]} (the modules it needs
 * compiled in the reactor first).
 */
public final class OverviewReadsBenchmark {

    private static final Duration SINCE = Duration.ofHours(24);
    private static final int ROUNDS = 3;

    private OverviewReadsBenchmark() {}

    public static void main(String[] args) {
        List<Integer> sizes = new ArrayList<>();
        for (String a : args.length == 0 ? new String[] {"1000", "10000"} : args) {
            sizes.add(Integer.parseInt(a));
        }
        LocalAws aws = LocalAws.shared();
        CallCounter counter = new CallCounter();
        DynamoDbClient dynamoDb = DynamoDbClient.builder()
                .endpointOverride(aws.dynamoDbEndpoint())
                .region(aws.region())
                .credentialsProvider(aws.credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .addExecutionInterceptor(counter)
                        .build())
                .build();
        Instant now = Instant.now();
        Clock clock = Clock.fixed(now, ZoneOffset.UTC);
        List<String> lines = new ArrayList<>();
        for (int n : sizes) {
            String table =
                    "redrive-quarantine-bench-" + UUID.randomUUID().toString().substring(0, 8);
            LocalResources.createQuarantineTable(dynamoDb, table);
            DynamoDbQuarantineLedger ledger = new DynamoDbQuarantineLedger(dynamoDb, table, clock);
            Route route = new Route("bench", "bench-source", "bench-source-dlq");
            long seeding = System.nanoTime();
            seed(ledger, route, n, now);
            System.out.printf(
                    Locale.ROOT, "seeded %,d dead letters in %.1f s%n", n, (System.nanoTime() - seeding) / 1e9);
            SweeperFixture fixture = new SweeperFixture();
            OperatorPort operator =
                    fixture.operator().ledger(ledger).clock(clock).build();

            RouteStatus before = null;
            RouteStatus after = null;
            Tally beforeTally = null;
            Tally afterTally = null;
            for (int round = 0; round < ROUNDS; round++) {
                counter.reset();
                before = formerStatus(ledger, fixture, route, now);
                formerArrivals(ledger, route, now);
                beforeTally = min(beforeTally, counter.tally());
                counter.reset();
                after = operator.status(route, SINCE);
                operator.arrivedSince(route.sourceQueue(), now.minus(SINCE));
                afterTally = min(afterTally, counter.tally());
            }
            if (!before.equals(after)) {
                throw new IllegalStateException("the status differs: before " + before + ", after " + after);
            }
            double itemBytes = averageItemBytes(dynamoDb, table, route);
            lines.add(String.format(
                    Locale.ROOT, "%,d dead letters (%s), %.0f B per item:", n, after.byState(), itemBytes));
            lines.add(row("", "before", "after", "after/before"));
            lines.add(row("calls", beforeTally.calls, afterTally.calls));
            lines.add(row("items evaluated", beforeTally.scanned, afterTally.scanned));
            lines.add(row("items returned", beforeTally.returned, afterTally.returned));
            lines.add(row("bytes returned", beforeTally.bytes, afterTally.bytes));
            lines.add(row("est. read units", estimate(beforeTally, itemBytes), estimate(afterTally, itemBytes)));
            lines.add(row("capacity moto reports", beforeTally.capacity, afterTally.capacity));
            lines.add(row("ms (moto, best of " + ROUNDS + ")", beforeTally.millis, afterTally.millis));
            lines.add("");
            dynamoDb.deleteTable(b -> b.tableName(table));
        }
        System.out.println();
        System.out.println(
                "The overview's DynamoDB reads for one route (status over 24 h + the arrivals chart's records)");
        lines.forEach(System.out::println);
        System.exit(0);
    }

    /** The status as it was computed before: every record of the queue read back. */
    private static RouteStatus formerStatus(QuarantineLedger ledger, SweeperFixture fixture, Route route, Instant now) {
        Map<FailureClass, Integer> arrivals = new EnumMap<>(FailureClass.class);
        for (FailureClass c : FailureClass.values()) {
            arrivals.put(c, 0);
        }
        Map<QuarantineState, Integer> states = new EnumMap<>(QuarantineState.class);
        QuarantineRecord oldest = null;
        Instant from = now.minus(SINCE);
        for (QuarantineRecord r : ledger.ofQueue(route.sourceQueue(), Integer.MAX_VALUE)) {
            states.merge(r.state(), 1, Integer::sum);
            if (!r.arrivedAt().isBefore(from)) {
                arrivals.merge(r.classification().failureClass(), 1, Integer::sum);
            }
            if (!r.state().resolved() && (oldest == null || r.arrivedAt().isBefore(oldest.arrivedAt()))) {
                oldest = r;
            }
        }
        return new RouteStatus(
                route,
                fixture.dlq.approximateDepth(route.sourceQueue()),
                fixture.dlq.approximateDepth(route.deadLetterQueue()),
                Optional.ofNullable(oldest),
                arrivals,
                states);
    }

    /** The chart's records as they were read before: the whole queue, filtered by arrival afterwards. */
    private static List<QuarantineRecord> formerArrivals(QuarantineLedger ledger, Route route, Instant now) {
        Instant from = now.minus(SINCE);
        return ledger.ofQueue(route.sourceQueue(), Integer.MAX_VALUE).stream()
                .filter(r -> !r.arrivedAt().isBefore(from))
                .toList();
    }

    /**
     * N dead letters over the last week: 60% waiting, 10% under review, 15% replayed and 15% archived, half of the
     * resolved ones archived to the store (tombstones), 12 error types over every class.
     */
    private static void seed(QuarantineLedger ledger, Route route, int n, Instant now) {
        Random random = new Random(42);
        FailureClass[] classes = FailureClass.values();
        List<QuarantineRecord> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int pick = random.nextInt(100);
            QuarantineState state = pick < 60
                    ? QuarantineState.QUARANTINED
                    : pick < 70
                            ? QuarantineState.UNDER_REVIEW
                            : pick < 85 ? QuarantineState.REPLAYED : QuarantineState.ARCHIVED;
            int type = random.nextInt(12);
            Instant arrived = now.minusSeconds(60 + random.nextInt(7 * 86_400));
            String id = String.format(Locale.ROOT, "q-%08d", i);
            QuarantineRecord r = new QuarantineRecord(
                    id,
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
                                    classes[type % classes.length],
                                    type == 0 ? "Timeout" : "Error" + type,
                                    "reason " + type + ": the dependency answered 503 after 3 attempts",
                                    "dependency-" + (type % 3)),
                            arrived.minusSeconds(90),
                            arrived.minusSeconds(30),
                            3),
                    new PayloadLocation.Inline("{\"id\":\"e-" + i + "\",\"amount\":" + (100 + i)
                            + ",\"customer\":{\"name\":\"n-" + i + "\",\"email\":\"c" + i + "@example.com\"},"
                            + "\"lines\":[{\"sku\":\"s-1\",\"qty\":2},{\"sku\":\"s-2\",\"qty\":1}]}"),
                    Map.of(
                            "trace", MessageAttribute.ofString("t-" + i),
                            "version", MessageAttribute.ofString("1.4." + (i % 5))),
                    state == QuarantineState.REPLAYED ? 1 : 0,
                    "arrived",
                    List.of(new AuditEntry(null, state, arrived, Actor.AUTOMATION, "arrived")),
                    0);
            batch.add(state.resolved() && random.nextBoolean() ? r.tombstone("archive/" + i + ".jsonl.gz") : r);
            if (batch.size() == 10) {
                ledger.insertAllIfAbsent(batch, Optional.empty());
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            ledger.insertAllIfAbsent(batch, Optional.empty());
        }
    }

    /** The average size of the queue's items as DynamoDB sizes them (names and values), from one page of them. */
    private static double averageItemBytes(DynamoDbClient dynamoDb, String table, Route route) {
        QueryResponse page = dynamoDb.query(b -> b.tableName(table)
                .indexName("byQueue")
                .keyConditionExpression("sourceQueue = :q")
                .expressionAttributeValues(Map.of(
                        ":q", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(route.sourceQueue())))
                .limit(500));
        long total = 0;
        for (var item : page.items()) {
            total += ItemSize.of(item);
        }
        return page.items().isEmpty() ? 0 : (double) total / page.items().size();
    }

    /**
     * Read units as DynamoDB would charge them, eventually consistent (a GSI's reads are): half a unit per 4 KB of items
     * evaluated, rounded up per call (spread evenly over the calls here), and half a unit for a GetItem.
     */
    private static double estimate(Tally t, double itemBytes) {
        double units = 0;
        if (t.queryCalls > 0) {
            double bytesPerCall = t.scanned * itemBytes / t.queryCalls;
            units += t.queryCalls * 0.5 * Math.max(1, Math.ceil(bytesPerCall / 4096));
        }
        return units + 0.5 * (t.calls - t.queryCalls);
    }

    private static Tally min(Tally a, Tally b) {
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
                before == 0 ? "-" : String.format(Locale.ROOT, "%.3f", after / before));
    }

    /** What one overview's reads added up to. */
    private record Tally(
            long calls, long queryCalls, long scanned, long returned, long bytes, double capacity, double millis) {}

    /** Counts every call the client makes, asking each read for its consumed capacity. */
    private static final class CallCounter implements ExecutionInterceptor {
        private long calls;
        private long queryCalls;
        private long scanned;
        private long returned;
        private long bytes;
        private double capacity;
        private long started;

        synchronized void reset() {
            calls = queryCalls = scanned = returned = bytes = 0;
            capacity = 0;
            started = System.nanoTime();
        }

        synchronized Tally tally() {
            return new Tally(
                    calls, queryCalls, scanned, returned, bytes, capacity, (System.nanoTime() - started) / 1e6);
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
            return r;
        }

        @Override
        public synchronized void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            calls++;
            context.httpResponse().firstMatchingHeader("Content-Length").ifPresent(l -> bytes += Long.parseLong(l));
            SdkResponse r = context.response();
            if (r instanceof QueryResponse q) {
                queryCalls++;
                scanned += q.scannedCount() == null ? 0 : q.scannedCount();
                returned += q.count() == null ? 0 : q.count();
                add(q.consumedCapacity());
            } else if (r instanceof GetItemResponse g) {
                scanned++;
                returned += g.hasItem() ? 1 : 0;
                add(g.consumedCapacity());
            }
        }

        private void add(ConsumedCapacity c) {
            if (c != null && c.capacityUnits() != null) {
                capacity += c.capacityUnits();
            }
        }
    }

    /** An item's size as DynamoDB counts it, near enough: attribute names and values, UTF-8. */
    private static final class ItemSize {
        private ItemSize() {}

        static long of(Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item) {
            long size = 0;
            for (var e : item.entrySet()) {
                size += utf8(e.getKey()) + of(e.getValue());
            }
            return size;
        }

        private static long of(software.amazon.awssdk.services.dynamodb.model.AttributeValue v) {
            if (v.s() != null) {
                return utf8(v.s());
            }
            if (v.n() != null) {
                return (v.n().length() + 1) / 2 + 1;
            }
            if (v.b() != null) {
                return v.b().asByteArray().length;
            }
            if (v.hasM()) {
                return 3 + of(v.m()) + v.m().size();
            }
            if (v.hasL()) {
                long size = 3;
                for (var e : v.l()) {
                    size += 1 + of(e);
                }
                return size;
            }
            return 1;
        }

        private static long utf8(String s) {
            return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
    }
}
