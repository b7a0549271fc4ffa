package dev.redrive.checkout.placing;

import dev.redrive.checkout.CheckoutNames.OrderIndexShards;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * How the orders table's sparse indexes spread their writes: an item's index partition key is its shard, {@code "1"}
 * to {@code "<count>"}, from a stable hash of the id it belongs to (the order id for an outbox item, the
 * Idempotency-Key for an attempt), so the item keeps its shard for its life and the write that clears it (a
 * {@code REMOVE}) needs no shard at all. Readers query every shard from {@code "1"} to {@link #readShards()}.
 *
 * <p>Deploys that change the count lose nothing when the count grows: the readers' shards are a superset of the
 * writers'. Shard {@code "1"} is the constant key of the unsharded layout, so its items (the layout before shards, or a
 * count of 1) are read by every count. Lowering the count leaves items in the shards above it: {@code draining} is the
 * former count, whose shards the readers keep querying until those items are published or finished.
 *
 * @param count    the shards written, 1 to {@value OrderIndexShards#MAX}
 * @param draining the shards read: at least {@code count}; a former, larger count while its shards drain
 */
public record IndexShards(int count, int draining) {

    /** {@value OrderIndexShards#DEFAULT} shards, none draining. */
    public static final IndexShards DEFAULT = of(OrderIndexShards.DEFAULT);

    /** Checks both counts. */
    public IndexShards {
        if (count < 1 || count > OrderIndexShards.MAX) {
            throw new IllegalArgumentException("the orders table's index shard count is " + count + ": it must be 1 to "
                    + OrderIndexShards.MAX + " (redrive.checkout.index-shards)");
        }
        if (draining < count || draining > OrderIndexShards.MAX) {
            throw new IllegalArgumentException("the draining index shard count is " + draining + ": it must be "
                    + count + " (the shard count) to " + OrderIndexShards.MAX
                    + " (redrive.checkout.index-shards-draining: the former, larger count)");
        }
    }

    /** {@code count} shards written and read. */
    public static IndexShards of(int count) {
        return new IndexShards(count, count);
    }

    /** These shards, with the readers also querying the shards of {@code formerCount} while they drain. */
    public IndexShards drainingFrom(int formerCount) {
        return new IndexShards(count, Math.max(count, formerCount));
    }

    /**
     * The shard of {@code id}: {@code 1 + (h mod count)}, where {@code h} is the first four bytes of the SHA-256 of its
     * UTF-8 bytes, read as an unsigned big-endian number (the same in any language, on any machine).
     */
    public String shardOf(String id) {
        byte[] digest = sha256(id);
        long h = ((digest[0] & 0xFFL) << 24)
                | ((digest[1] & 0xFFL) << 16)
                | ((digest[2] & 0xFFL) << 8)
                | (digest[3] & 0xFFL);
        return Long.toString(1 + h % count);
    }

    /** Every shard the readers query: {@code "1"} to {@code "<draining>"}. */
    public List<String> readShards() {
        List<String> shards = new ArrayList<>(draining);
        for (int i = 1; i <= draining; i++) {
            shards.add(Integer.toString(i));
        }
        return shards;
    }

    private static byte[] sha256(String id) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
