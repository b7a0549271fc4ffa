package dev.redrive.infra.checkout;

import dev.redrive.checkout.CheckoutNames.OrderIndexShards;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The shards of the orders table's two sparse indexes ({@value CheckoutProducer#UNPUBLISHED_INDEX},
 * {@value CheckoutProducer#OPEN_ATTEMPT_INDEX}): each item's index partition key is its shard, {@code "1"} to
 * {@code "<count>"}, so the writes spread over that many index partitions; the sweep and the reconciliation query each
 * shard. Shard {@code "1"} is the constant key of the layout before shards, so a deploy over it loses nothing.
 *
 * @param count    {@code orderIndexShards}: the shards written and read, 1 to {@value OrderIndexShards#MAX} (default
 *                 {@value OrderIndexShards#DEFAULT})
 * @param draining {@code orderIndexShardsDraining}: after lowering {@code count}, the former count, whose shards the
 *                 readers keep querying until what was written there is published or finished; more than
 *                 {@code count}, at most {@value OrderIndexShards#MAX}
 */
public record IndexShardSettings(int count, Optional<Integer> draining) {

    /** {@value OrderIndexShards#DEFAULT} shards, none draining. */
    public static final IndexShardSettings DEFAULT = new IndexShardSettings(OrderIndexShards.DEFAULT, Optional.empty());

    /** Checks both counts, naming the context key, the value and what is allowed. */
    public IndexShardSettings {
        if (count < 1 || count > OrderIndexShards.MAX) {
            throw new IllegalArgumentException(
                    "-c orderIndexShards=" + count + " is not a shard count: it must be 1 to " + OrderIndexShards.MAX);
        }
        draining.ifPresent(d -> {
            if (d <= count || d > OrderIndexShards.MAX) {
                throw new IllegalArgumentException("-c orderIndexShardsDraining=" + d + " must be more than "
                        + "orderIndexShards (" + count + ") and at most " + OrderIndexShards.MAX
                        + ": it is the former, larger count whose shards are still read");
            }
        });
    }

    /** What the producer's functions are told: the count always (the template says it), the draining count if set. */
    public Map<String, String> environment() {
        Map<String, String> env = new TreeMap<>();
        env.put(OrderIndexShards.VARIABLE, Integer.toString(count));
        draining.ifPresent(d -> env.put(OrderIndexShards.DRAINING_VARIABLE, Integer.toString(d)));
        return env;
    }
}
