package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.checkout.CheckoutNames.OrderIndexShards;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The orders table's sparse indexes, sharded, on local AWS (each test its own table): the writes spread over the
 * shards, the readers find every item across them, oldest first, and a deploy that changes the shard count (or comes
 * from the unsharded layout, whose constant key was {@code "1"}) loses no outbox event and no open attempt.
 */
class ShardedIndexesTest {

    static final Instant BASE = Instant.parse("2026-12-04T10:00:00Z");

    OrdersTableRig rig;

    @BeforeEach
    void table() {
        rig = new OrdersTableRig();
    }

    @Test
    void theOutboxItemsShardIsItsOrdersAndItsMarkTakesItOutOfTheIndex() {
        DynamoDbCheckoutStore store = rig.store(IndexShards.of(8));
        OutboxEvent event = rig.placedAt(store, BASE);

        assertThat(rig.outboxItem(event.orderId()).get("unpublished"))
                .isEqualTo(AttributeValue.fromS(IndexShards.of(8).shardOf(event.orderId())));
        store.markPublished(event.orderId(), event.sequence(), BASE.plusSeconds(1));

        assertThat(rig.outboxItem(event.orderId())).doesNotContainKey("unpublished");
        assertThat(rig.perShard(DynamoDbCheckoutStore.UNPUBLISHED_INDEX, "unpublished", 8)
                        .values())
                .containsOnly(0);
    }

    @Test
    void theUnpublishedOfEveryShardAreReadOldestFirstAcrossShardsAndUpToTheLimit() {
        DynamoDbCheckoutStore store = rig.store(IndexShards.of(8));
        List<OutboxEvent> written = new ArrayList<>();
        // written out of time order, so no shard's answer is the whole order
        for (int i = 0; i < 40; i++) {
            written.add(rig.placedAt(store, BASE.plusSeconds((i * 17L) % 40)));
        }
        List<OutboxEvent> oldestFirst = written.stream()
                .sorted(Comparator.comparing(OutboxEvent::createdAt))
                .toList();
        Map<Integer, Integer> perShard = rig.perShard(DynamoDbCheckoutStore.UNPUBLISHED_INDEX, "unpublished", 8);
        assertThat(perShard.values())
                .as("40 events over 8 shards: %s", perShard)
                .allMatch(c -> c > 0);

        assertThat(store.unpublished(BASE.plusSeconds(60), 1000)).containsExactlyElementsOf(oldestFirst);
        assertThat(store.unpublished(BASE.plusSeconds(60), 7)).containsExactlyElementsOf(oldestFirst.subList(0, 7));
        assertThat(store.unpublished(BASE.plusSeconds(60), 1)).containsExactly(oldestFirst.get(0));
        assertThat(store.unpublished(BASE.plusSeconds(20), 1000))
                .as("only those written before the cut")
                .containsExactlyElementsOf(oldestFirst.subList(0, 20));
    }

    @Test
    void theAbandonedOfEveryShardAreReadLongestAbandonedFirstAcrossShards() {
        DynamoDbCheckoutStore store = rig.store(IndexShards.of(8));
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String key = rig.nextKey();
            OrdersTableRig.begin(store, key, BASE.plusSeconds((i * 7L) % 30));
            keys.add(key);
        }
        Map<Integer, Integer> perShard = rig.perShard(DynamoDbCheckoutStore.OPEN_ATTEMPT_INDEX, "openAttempt", 8);
        assertThat(perShard.values())
                .as("30 attempts over 8 shards: %s", perShard)
                .allMatch(c -> c > 0);

        List<CheckoutAttempt> abandoned =
                store.abandoned(BASE.plus(OrdersTableRig.LEASE).plusSeconds(60), 1000);

        assertThat(abandoned).extracting(CheckoutAttempt::key).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(abandoned).extracting(CheckoutAttempt::leaseUntil).isSorted();
        assertThat(store.abandoned(BASE.plus(OrdersTableRig.LEASE).plusSeconds(60), 5))
                .containsExactlyElementsOf(abandoned.subList(0, 5));
    }

    /** The unsharded layout wrote {@code unpublished} and {@code openAttempt} as the constant "1": shard "1". */
    @Test
    void itemsOfTheUnshardedLayoutAreFoundByEveryShardCount() {
        DynamoDbCheckoutStore unsharded = rig.store(IndexShards.of(1));
        OutboxEvent event = rig.placedAt(unsharded, BASE);
        String key = rig.nextKey();
        OrdersTableRig.begin(unsharded, key, BASE);
        assertThat(rig.outboxItem(event.orderId()).get("unpublished"))
                .as("one shard writes what the unsharded layout wrote")
                .isEqualTo(AttributeValue.fromS("1"));

        for (int count : List.of(1, 2, 8, OrderIndexShards.MAX)) {
            DynamoDbCheckoutStore sharded = rig.store(IndexShards.of(count));
            assertThat(sharded.unpublished(BASE.plusSeconds(1), 1000))
                    .as("%d shards", count)
                    .containsExactly(event);
            assertThat(sharded.abandoned(BASE.plus(OrdersTableRig.LEASE).plusSeconds(1), 1000))
                    .as("%d shards", count)
                    .extracting(CheckoutAttempt::key)
                    .containsExactly(key);
        }
    }

    @Test
    void aGrowingShardCountLosesNothingWrittenUnderTheOldOne() {
        List<OutboxEvent> written = new ArrayList<>();
        DynamoDbCheckoutStore eight = rig.store(IndexShards.of(8));
        for (int i = 0; i < 20; i++) {
            written.add(rig.placedAt(eight, BASE.plusSeconds(i)));
        }
        DynamoDbCheckoutStore sixteen = rig.store(IndexShards.of(16));
        for (int i = 20; i < 40; i++) {
            written.add(rig.placedAt(sixteen, BASE.plusSeconds(i)));
        }

        assertThat(sixteen.unpublished(BASE.plusSeconds(60), 1000)).containsExactlyElementsOf(written);
        assertThat(rig.perShard(DynamoDbCheckoutStore.UNPUBLISHED_INDEX, "unpublished", 16).entrySet().stream()
                        .filter(e -> e.getKey() > 8)
                        .mapToInt(Map.Entry::getValue)
                        .sum())
                .as("the new writes reach the new shards")
                .isPositive();
    }

    /**
     * Lowering the count leaves items in the shards above it; the readers find them while the former count drains,
     * and marking them clears them from whatever shard they are in. Without the draining count they are out of reach:
     * the reason the setting exists.
     */
    @Test
    void aLoweredShardCountFindsTheFormerShardsItemsWhileTheyDrain() {
        List<OutboxEvent> written = new ArrayList<>();
        DynamoDbCheckoutStore sixteen = rig.store(IndexShards.of(16));
        for (int i = 0; i < 40; i++) {
            written.add(rig.placedAt(sixteen, BASE.plusSeconds(i)));
        }
        List<OutboxEvent> aboveFour = written.stream()
                .filter(e -> Integer.parseInt(IndexShards.of(16).shardOf(e.orderId())) > 4)
                .toList();
        assertThat(aboveFour).isNotEmpty();

        DynamoDbCheckoutStore fourOnly = rig.store(IndexShards.of(4));
        DynamoDbCheckoutStore fourDraining = rig.store(IndexShards.of(4).drainingFrom(16));

        assertThat(fourOnly.unpublished(BASE.plusSeconds(60), 1000)).doesNotContainAnyElementsOf(aboveFour);
        assertThat(fourDraining.unpublished(BASE.plusSeconds(60), 1000)).containsExactlyElementsOf(written);

        fourDraining.markAllPublished(aboveFour.subList(0, Math.min(aboveFour.size(), 100)), BASE.plusSeconds(61));
        assertThat(rig.perShard(DynamoDbCheckoutStore.UNPUBLISHED_INDEX, "unpublished", 16).entrySet().stream()
                        .filter(e -> e.getKey() > 4)
                        .mapToInt(Map.Entry::getValue)
                        .sum())
                .as("the former shards drained")
                .isZero();
        assertThat(fourOnly.unpublished(BASE.plusSeconds(60), 1000))
                .containsExactlyElementsOf(
                        written.stream().filter(e -> !aboveFour.contains(e)).toList());
    }

    @Test
    void aShardCountOutsideOneToTheMaximumIsRefusedNamingTheValueAndTheSetting() {
        assertThatThrownBy(() -> IndexShards.of(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is 0")
                .hasMessageContaining("1 to " + OrderIndexShards.MAX)
                .hasMessageContaining("redrive.checkout.index-shards");
        assertThatThrownBy(() -> IndexShards.of(OrderIndexShards.MAX + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is " + (OrderIndexShards.MAX + 1));
        assertThatThrownBy(() -> new IndexShards(8, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("draining index shard count is 4")
                .hasMessageContaining("index-shards-draining");
        assertThat(IndexShards.of(8).drainingFrom(4)).isEqualTo(IndexShards.of(8));
        assertThat(IndexShards.DEFAULT.readShards()).containsExactly("1", "2", "3", "4", "5", "6", "7", "8");
    }
}
