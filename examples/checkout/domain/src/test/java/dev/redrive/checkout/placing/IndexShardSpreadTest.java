package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The figure of issue 40: the per-shard write counts of the orders table's two sparse indexes for 10,000 orders, with
 * the default shard count. No shard may hold more than 1.5 times the mean: a property of the shard function over these
 * ids (idem-1 to idem-10000, the keys every {@link OrdersTableRig} hands out), not of the machine nor of the emulator.
 *
 * <p>So the bound is checked where the whole sample is cheap: {@link IndexShards#shardOf} over the 10,000 orders' ids,
 * in memory (milliseconds): the idempotency key for {@value DynamoDbCheckoutStore#OPEN_ATTEMPT_INDEX}, the order id
 * for {@value DynamoDbCheckoutStore#UNPUBLISHED_INDEX}. What needs local AWS (moto) is that the store writes each
 * order into the shard the function names and the readers find every one across the shards: {@value #DEFAULT_ORDERS}
 * orders by default. Each order's attempt is begun by the store ({@link DynamoDbCheckoutStore#begin}: its write to
 * {@value DynamoDbCheckoutStore#OPEN_ATTEMPT_INDEX}); its outbox item is the one the store's placing transaction puts
 * ({@link DynamoDbCheckoutStore#outboxItem}, into {@value DynamoDbCheckoutStore#UNPUBLISHED_INDEX}), written with
 * BatchWriteItem ({@link ShardedIndexesTest} places orders through the transaction and checks that it writes the same
 * shard). A query per shard of each index counts them: each count must be the function's, and within the bound.
 *
 * <p>The figure's run on moto, 10,000 orders written and counted there (about ten minutes), is
 * {@code -Dredrive.shardSpread.orders=10000}: the command is in the module's README.
 */
class IndexShardSpreadTest {

    /** The orders of the figure, whose ids the shard function is checked over in memory. */
    static final int FIGURE_ORDERS = 10_000;

    static final int DEFAULT_ORDERS = 200;
    /** The orders written through local AWS: {@value #DEFAULT_ORDERS} unless {@code -Dredrive.shardSpread.orders}. */
    static final int ORDERS = Integer.getInteger("redrive.shardSpread.orders", DEFAULT_ORDERS);

    static final int WRITERS = 4;

    @Test
    void theShardFunctionSpreadsTheIndexWritesOfTheFiguresOrdersEvenlyOverTheDefaultShards() {
        IndexShards shards = IndexShards.DEFAULT;
        List<String> keys = keys(FIGURE_ORDERS);

        Map<Integer, Integer> openAttempts = perShard(shards, keys, key -> key);
        Map<Integer, Integer> unpublished = perShard(shards, keys, CheckoutService::orderIdOf);

        System.out.println(table(FIGURE_ORDERS, openAttempts, unpublished, "in memory"));
        assertSpread(DynamoDbCheckoutStore.OPEN_ATTEMPT_INDEX, FIGURE_ORDERS, openAttempts);
        assertSpread(DynamoDbCheckoutStore.UNPUBLISHED_INDEX, FIGURE_ORDERS, unpublished);
    }

    @Test
    void theStoreWritesEachOrderIntoTheShardTheFunctionNamesAndTheReaderFindsEveryOne() throws Exception {
        OrdersTableRig rig = new OrdersTableRig();
        IndexShards shards = IndexShards.DEFAULT;
        DynamoDbCheckoutStore store = rig.store(shards);
        Instant at = Instant.parse("2026-12-04T10:00:00Z");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            keys.add(rig.nextKey());
        }
        long started = System.nanoTime();
        inParallel(keys, key -> OrdersTableRig.begin(store, key, at));
        List<Map<String, AttributeValue>> outboxItems = new ArrayList<>();
        for (String key : keys) {
            String orderId = CheckoutService.orderIdOf(key);
            outboxItems.add(store.outboxItem(
                    new OutboxEvent(orderId, 1, CheckoutService.eventIdOf(orderId), "OrderPlaced", "{}", at)));
        }
        for (int from = 0; from < outboxItems.size(); from += 25) {
            rig.putAll(outboxItems.subList(from, Math.min(outboxItems.size(), from + 25)));
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        Map<Integer, Integer> openAttempts =
                rig.perShard(DynamoDbCheckoutStore.OPEN_ATTEMPT_INDEX, "openAttempt", shards.count());
        Map<Integer, Integer> unpublished =
                rig.perShard(DynamoDbCheckoutStore.UNPUBLISHED_INDEX, "unpublished", shards.count());

        System.out.println(table(ORDERS, openAttempts, unpublished, "written through local AWS in " + seconds + " s"));
        assertThat(openAttempts)
                .as("%s: the shards the function names for the keys", DynamoDbCheckoutStore.OPEN_ATTEMPT_INDEX)
                .isEqualTo(perShard(shards, keys, key -> key));
        assertThat(unpublished)
                .as("%s: the shards the function names for the order ids", DynamoDbCheckoutStore.UNPUBLISHED_INDEX)
                .isEqualTo(perShard(shards, keys, CheckoutService::orderIdOf));
        assertSpread(DynamoDbCheckoutStore.OPEN_ATTEMPT_INDEX, ORDERS, openAttempts);
        assertSpread(DynamoDbCheckoutStore.UNPUBLISHED_INDEX, ORDERS, unpublished);
        assertThat(store.unpublished(at.plusMillis(1), ORDERS + 1))
                .as("the sweep's reader finds every one across the shards")
                .hasSize(ORDERS);
    }

    /** The keys {@link OrdersTableRig#nextKey} hands out first: {@code idem-1} to {@code idem-<orders>}. */
    static List<String> keys(int orders) {
        List<String> keys = new ArrayList<>(orders);
        for (int i = 1; i <= orders; i++) {
            keys.add("idem-" + i);
        }
        return keys;
    }

    /** How many of {@code keys} each shard {@code 1} to {@code <count>} gets, sharded by {@code id} of the key. */
    static Map<Integer, Integer> perShard(IndexShards shards, List<String> keys, Function<String, String> id) {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (int shard = 1; shard <= shards.count(); shard++) {
            counts.put(shard, 0);
        }
        for (String key : keys) {
            counts.merge(Integer.parseInt(shards.shardOf(id.apply(key))), 1, Integer::sum);
        }
        return counts;
    }

    static void assertSpread(String index, int orders, Map<Integer, Integer> perShard) {
        int total = perShard.values().stream().mapToInt(Integer::intValue).sum();
        double mean = (double) total / perShard.size();
        assertThat(total).as("%s holds every order", index).isEqualTo(orders);
        assertThat(perShard.values())
                .as("%s: no shard above 1.5 x the mean (%.1f): %s", index, mean, perShard)
                .allMatch(c -> c <= 1.5 * mean);
    }

    static String table(int orders, Map<Integer, Integer> openAttempts, Map<Integer, Integer> unpublished, String how) {
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%d orders, %d shards, %s%n| shard | %s | %s |%n|---|---|---|%n",
                orders,
                openAttempts.size(),
                how,
                DynamoDbCheckoutStore.OPEN_ATTEMPT_INDEX,
                DynamoDbCheckoutStore.UNPUBLISHED_INDEX));
        openAttempts.forEach((shard, count) ->
                t.append(String.format(Locale.ROOT, "| %d | %d | %d |%n", shard, count, unpublished.get(shard))));
        t.append(String.format(
                Locale.ROOT,
                "| mean | %.1f | %.1f |%n| max / mean | %.3f | %.3f |%n| min / mean | %.3f | %.3f |%n",
                mean(openAttempts),
                mean(unpublished),
                max(openAttempts) / mean(openAttempts),
                max(unpublished) / mean(unpublished),
                min(openAttempts) / mean(openAttempts),
                min(unpublished) / mean(unpublished)));
        return t.toString();
    }

    static double mean(Map<Integer, Integer> perShard) {
        return perShard.values().stream().mapToInt(Integer::intValue).average().orElse(0);
    }

    static double max(Map<Integer, Integer> perShard) {
        return perShard.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    static double min(Map<Integer, Integer> perShard) {
        return perShard.values().stream().mapToInt(Integer::intValue).min().orElse(0);
    }

    interface Write<T> {
        T apply(String key) throws Exception;
    }

    /** {@code write} for every key, {@value #WRITERS} at a time; the answers in the keys' order. */
    static <T> List<T> inParallel(List<String> keys, Write<T> write) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<T>> answers = new ArrayList<>();
            for (String key : keys) {
                answers.add(pool.submit(() -> write.apply(key)));
            }
            List<T> done = new ArrayList<>();
            for (Future<T> a : answers) {
                done.add(a.get(10, TimeUnit.MINUTES));
            }
            return done;
        } finally {
            pool.shutdownNow();
        }
    }
}
