package dev.redrive.checkout.placing;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Merges the answers of one query per index shard, each already sorted by the index's sort key, into one sequence in
 * that order (a k-way merge: it holds one item per shard, and reads a shard's next page only when the next item is
 * asked for and that shard's page is used up, so a caller that stops at its limit reads no page it does not use).
 * Equal sort keys come in shard order.
 */
final class ShardMerge implements Iterator<Map<String, AttributeValue>> {

    private record Head(Map<String, AttributeValue> item, long sortKey, int shard) {}

    private final List<Iterator<Map<String, AttributeValue>>> shards;
    private final ToLongFunction<Map<String, AttributeValue>> sortKey;
    private final PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> a.sortKey() != b.sortKey()
            ? Long.compare(a.sortKey(), b.sortKey())
            : Integer.compare(a.shard(), b.shard()));
    /** The shard whose item was taken last, to be advanced before the next is asked for; -1 when none. */
    private int taken = -1;

    ShardMerge(
            List<Iterator<Map<String, AttributeValue>>> shards, ToLongFunction<Map<String, AttributeValue>> sortKey) {
        this.shards = shards;
        this.sortKey = sortKey;
        for (int i = 0; i < shards.size(); i++) {
            advance(i);
        }
    }

    private void advance(int shard) {
        Iterator<Map<String, AttributeValue>> items = shards.get(shard);
        if (items.hasNext()) {
            Map<String, AttributeValue> item = items.next();
            heads.add(new Head(item, sortKey.applyAsLong(item), shard));
        }
    }

    @Override
    public boolean hasNext() {
        if (taken >= 0) {
            advance(taken);
            taken = -1;
        }
        return !heads.isEmpty();
    }

    @Override
    public Map<String, AttributeValue> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Head head = heads.poll();
        taken = head.shard();
        return head.item();
    }
}
