package dev.redrive.checkout.placing;

import dev.redrive.localstack.CheckoutTables;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** An orders table of its own on local AWS, stores over it with any shards, and counts of its index shards. */
final class OrdersTableRig {

    static final Duration LEASE = Duration.ofSeconds(35);

    final DynamoDbClient dynamoDb;
    final String table;
    /** Skus stocked plenty: concurrent checkouts take one each, so no two reserve the same stock item at once. */
    static final int SKUS = 16;

    private final java.util.concurrent.atomic.AtomicLong keys = new java.util.concurrent.atomic.AtomicLong();

    OrdersTableRig() {
        this.dynamoDb = LocalAws.shared().dynamoDb();
        this.table = "orders-" + UUID.randomUUID();
        CheckoutTables.createOrdersTable(dynamoDb, table);
        for (int i = 0; i < SKUS; i++) {
            store(IndexShards.of(1)).stock(sku(i), 1_000_000_000L, 1250, "EUR");
        }
    }

    static String sku(int i) {
        return "mug-" + Math.floorMod(i, SKUS);
    }

    /**
     * The next Idempotency-Key of this table: {@code idem-1}, {@code idem-2}, ...; the same keys on every run, so the
     * shards they land in are the same on every run (a fresh table each time, so they never meet an old attempt).
     */
    String nextKey() {
        return "idem-" + keys.incrementAndGet();
    }

    DynamoDbCheckoutStore store(IndexShards shards) {
        return new DynamoDbCheckoutStore(dynamoDb, table, shards);
    }

    /** A store whose finished attempts and published events expire after {@code retention}, dated by {@code clock}. */
    DynamoDbCheckoutStore store(OrderRetention retention, java.time.Clock clock) {
        return new DynamoDbCheckoutStore(dynamoDb, table, IndexShards.DEFAULT, retention, clock);
    }

    /** The raw item {@code pk}/{@code sk}; empty when there is none. */
    Map<String, AttributeValue> item(String pk, String sk) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table)
                        .key(DynamoDbCheckoutStore.key(pk, sk))
                        .consistentRead(true))
                .item();
        return item == null ? Map.of() : item;
    }

    /** Begins the checkout of {@code key} at {@code at}: its attempt enters the open-attempt index. */
    static long begin(DynamoDbCheckoutStore store, String key, Instant at) {
        CheckoutStore.Begin begun = store.begin(key, "fp-1", CheckoutService.orderIdOf(key), at, LEASE);
        if (!(begun instanceof CheckoutStore.Started)) {
            throw new AssertionError("not begun: " + begun);
        }
        return begun.attempt().token();
    }

    /** Reserves and places the order of {@code key}, begun with {@code token}, written at {@code at}. */
    OutboxEvent place(DynamoDbCheckoutStore store, String key, long token, Instant at) {
        String sku = sku(key.hashCode());
        String orderId = CheckoutService.orderIdOf(key);
        if (!(store.reserve(orderId, List.of(new OrderLine(sku, 1)), "EUR", at) instanceof CheckoutStore.Reserved)) {
            throw new AssertionError("not reserved: " + orderId);
        }
        PlacedOrder order = new PlacedOrder(
                orderId,
                CheckoutService.eventIdOf(orderId),
                "ada@example.com",
                List.of(new PlacedOrder.PricedLine(sku, 1, 1250)),
                1250,
                "EUR",
                at,
                "auth-" + key);
        OutboxEvent event = CheckoutService.orderPlaced(order);
        if (!store.place(key, token, order, event)) {
            throw new AssertionError("not placed: " + orderId);
        }
        return event;
    }

    /** A whole checkout of a fresh key at {@code at}: begun, reserved, placed; its event unpublished. */
    OutboxEvent placedAt(DynamoDbCheckoutStore store, Instant at) {
        String key = nextKey();
        return place(store, key, begin(store, key, at), at);
    }

    /**
     * How many items each shard {@code "1"} to {@code "<shards>"} of {@code index} holds, counted by a query per shard
     * ({@code Select COUNT}, every page).
     */
    Map<Integer, Integer> perShard(String index, String shardKey, int shards) {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (int shard = 1; shard <= shards; shard++) {
            String value = Integer.toString(shard);
            int count = 0;
            for (var page : dynamoDb.queryPaginator(b -> b.tableName(table)
                    .indexName(index)
                    .keyConditionExpression("#shard = :shard")
                    .expressionAttributeNames(Map.of("#shard", shardKey))
                    .expressionAttributeValues(Map.of(":shard", AttributeValue.fromS(value)))
                    .select(Select.COUNT))) {
                count += page.count();
            }
            counts.put(shard, count);
        }
        return counts;
    }

    /** Puts {@code items} (at most 25) with BatchWriteItem, again for any left unprocessed. */
    void putAll(List<Map<String, AttributeValue>> items) {
        Map<String, List<WriteRequest>> request = Map.of(
                table,
                items.stream()
                        .map(i -> WriteRequest.builder()
                                .putRequest(p -> p.item(i))
                                .build())
                        .toList());
        while (!request.isEmpty()) {
            Map<String, List<WriteRequest>> ask = request;
            var answer = dynamoDb.batchWriteItem(b -> b.requestItems(ask));
            request = answer.hasUnprocessedItems() ? answer.unprocessedItems() : Map.of();
        }
    }

    /** The raw item of the outbox event of {@code orderId}. */
    Map<String, AttributeValue> outboxItem(String orderId) {
        return dynamoDb.getItem(b -> b.tableName(table)
                        .key(DynamoDbCheckoutStore.key("order#" + orderId, DynamoDbCheckoutStore.OUTBOX + "0000000001"))
                        .consistentRead(true))
                .item();
    }
}
