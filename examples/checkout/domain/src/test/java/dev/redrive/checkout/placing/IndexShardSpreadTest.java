package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The figure of issue 40: the per-shard write counts of the orders table's two sparse indexes for 10,000 orders on
 * local AWS, with the default shard count, counted by a query per shard of each index once it holds all 10,000. No
 * shard may hold more than 1.5 times the mean (a property of the hash over these ids, not of the machine).
 *
 * <p>Each order's attempt is begun by the store ({@link DynamoDbCheckoutStore#begin}: its write to
 * {@value DynamoDbCheckoutStore#OPEN_ATTEMPT_INDEX}). Its outbox item is the one the store's placing transaction puts
 * ({@link DynamoDbCheckoutStore#outboxItem}, into {@value DynamoDbCheckoutStore#UNPUBLISHED_INDEX}), written here
 * with BatchWriteItem instead of 10,000 transactions: the emulator (moto) deep-copies the whole table for each item of
 * every transaction, so 10,000 placings would take hours ({@link ShardedIndexesTest} places orders through the
 * transaction and checks that it writes the same shard). The regular build writes 2,000 orders (the same bound, a
 * fifth of the time); the figure's 10,000 is {@code -Dredrive.shardSpread.orders=10000} (the command in the module's
 * README).
 */
class IndexShardSpreadTest {

    static final int ORDERS = Integer.getInteger("redrive.shardSpread.orders", 2_000);
    static final int WRITERS = 4;

    @Test
    void theIndexWritesOfManyOrdersSpreadEvenlyOverTheDefaultShards() throws Exception {
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

        System.out.println(table(openAttempts, unpublished, seconds));
        assertSpread(DynamoDbCheckoutStore.OPEN_ATTEMPT_INDEX, openAttempts);
        assertSpread(DynamoDbCheckoutStore.UNPUBLISHED_INDEX, unpublished);
        assertThat(store.unpublished(at.plusMillis(1), ORDERS + 1))
                .as("the sweep's reader finds every one across the shards")
                .hasSize(ORDERS);
    }

    static void assertSpread(String index, Map<Integer, Integer> perShard) {
        int total = perShard.values().stream().mapToInt(Integer::intValue).sum();
        double mean = (double) total / perShard.size();
        assertThat(total).as("%s holds every order", index).isEqualTo(ORDERS);
        assertThat(perShard.values())
                .as("%s: no shard above 1.5 x the mean (%.1f): %s", index, mean, perShard)
                .allMatch(c -> c <= 1.5 * mean);
    }

    static String table(Map<Integer, Integer> openAttempts, Map<Integer, Integer> unpublished, long seconds) {
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%d orders, %d shards, written in %d s%n| shard | %s | %s |%n|---|---|---|%n",
                ORDERS,
                openAttempts.size(),
                seconds,
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
