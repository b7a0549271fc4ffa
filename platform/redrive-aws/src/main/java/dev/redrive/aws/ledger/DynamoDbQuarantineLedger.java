package dev.redrive.aws.ledger;

import dev.redrive.aws.dynamo.BatchReads;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The quarantine ledger on DynamoDB. Every write is conditional on the version read. A fenced write (the sweeper's)
 * carries its fencing token onto the item ({@code fence}), and its condition refuses it when the item was written with
 * a higher token: {@code (<version or absence>) AND (attribute_not_exists(fence) OR fence <= :token)}. A token whose
 * lease has lapsed by the ledger's clock writes nothing at all, without a call: the lease is granted to another only
 * once it has lapsed, so no lease is read before a write (see {@link QuarantineLedger}).
 *
 * <p>Batches ({@link #insertAllIfAbsent}, {@link #saveAll}) go ten records to a TransactWriteItems, each record with
 * its own condition ({@link FencedWrites}): one call where ten PutItems were, at twice a PutItem's write units. A
 * refused record cancels its transaction; the cancellation reasons name it, and the others are written again without
 * it.
 * {@link #findAll} is a consistent BatchGetItem per hundred ids.
 *
 * <p>The counts ({@link #count}, {@link #countActiveByState}, {@link #countByState}) are kept as the records are
 * written, in the same transaction ({@link LedgerCounts}): one item read per queue, whatever the ledger holds. A save
 * first reads the stored item's state, queue and version (a consistent GetItem, or a BatchGetItem per hundred for
 * {@link #saveAll}) to know which count it leaves; a write that adds a record or moves it to another count is a
 * TransactWriteItems with the ADD on its queue's counts, one that stays where it is counted a single write as before.
 * Records written before counts were kept are counted once by {@link #establishCounts}.
 */
public final class DynamoDbQuarantineLedger implements QuarantineLedger {

    /** Listings of fewer records than this read pages of at least {@link #MIN_PAGE} items instead of 1 MB. */
    private static final int PAGE_LIMIT = 1_000;

    private static final int MIN_PAGE = 100;

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final Clock clock;
    private final FencedWrites writes;

    public DynamoDbQuarantineLedger(DynamoDbClient dynamoDb, String table, Clock clock) {
        this(dynamoDb, table, clock, Optional.empty());
    }

    /**
     * A ledger whose tombstones expire {@code tombstoneTtl} after they are written: each gets {@code expiresAt} (epoch
     * seconds, the table's TTL attribute), a record brought back from the archive loses it. Without one, a tombstone's
     * expiry is left as it is (a person's save through the CLI keeps the sweeper's).
     */
    public DynamoDbQuarantineLedger(
            DynamoDbClient dynamoDb, String table, Clock clock, Optional<java.time.Duration> tombstoneTtl) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.clock = clock;
        this.writes = new FencedWrites(dynamoDb, table, clock, tombstoneTtl);
    }

    /**
     * A ledger on {@code table}; {@code controlTable}, where the leases are, is not read: a fencing token carries its
     * lease's end.
     */
    public DynamoDbQuarantineLedger(DynamoDbClient dynamoDb, String table, String controlTable, Clock clock) {
        this(dynamoDb, table, clock);
    }

    @Override
    public Optional<QuarantineRecord> find(String id) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(QuarantineItems.key(id)).consistentRead(true))
                .item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(QuarantineItems.fromItem(item));
    }

    @Override
    public Map<String, QuarantineRecord> findAll(Collection<String> ids) {
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        ids.forEach(id -> keys.add(QuarantineItems.key(id)));
        Map<String, QuarantineRecord> byId = new HashMap<>();
        for (Map<String, AttributeValue> item : BatchReads.byKey(dynamoDb, table, keys)) {
            QuarantineRecord r = QuarantineItems.fromItem(item);
            byId.put(r.id(), r);
        }
        Map<String, QuarantineRecord> found = new LinkedHashMap<>();
        for (String id : ids) {
            QuarantineRecord r = byId.get(id);
            if (r != null) {
                found.put(id, r);
            }
        }
        return found;
    }

    @Override
    public boolean insertIfAbsent(QuarantineRecord record, Optional<LeaseToken> fence) {
        return !lapsed(fence) && writes.put(writes.insert(record, fence));
    }

    @Override
    public Optional<QuarantineRecord> save(QuarantineRecord record, Optional<LeaseToken> fence) {
        if (lapsed(fence)) {
            return Optional.empty();
        }
        Optional<Map<String, AttributeValue>> stored = Optional.ofNullable(dynamoDb.getItem(b -> b.tableName(table)
                                .key(QuarantineItems.key(record.id()))
                                .consistentRead(true)
                                .projectionExpression(STORED_PROJECTION)
                                .expressionAttributeNames(STORED_NAMES))
                        .item())
                .filter(item -> !item.isEmpty());
        if (stored.isEmpty() || QuarantineItems.version(stored.get()) != record.version()) {
            return Optional.empty(); // its condition would refuse it: nothing is written
        }
        FencedWrites.Write w = writes.update(record, fence, countedAs(stored.get()));
        return writes.put(w) ? Optional.of(w.stored()) : Optional.empty();
    }

    /**
     * What a save reads of the stored item first, to move its count: its state and queue, whether it is counted, and
     * its version (the save's condition holds only at the version read, so what was read is what the write replaces).
     */
    private static final String STORED_PROJECTION = "pk, #version, #state, storedState, sourceQueue, counted";

    private static final Map<String, String> STORED_NAMES = Map.of("#version", "version", "#state", "state");

    /** Where a stored item is counted; empty when it was written before counts were kept. */
    private static Optional<LedgerCounts.Tally> countedAs(Map<String, AttributeValue> stored) {
        return stored.containsKey(LedgerCounts.COUNTED) ? Optional.of(LedgerCounts.Tally.of(stored)) : Optional.empty();
    }

    @Override
    public Set<String> insertAllIfAbsent(List<QuarantineRecord> records, Optional<LeaseToken> fence) {
        if (lapsed(fence)) {
            return Set.of();
        }
        List<FencedWrites.Write> batch = new ArrayList<>();
        for (QuarantineRecord r : QuarantineLedger.distinct(records)) {
            batch.add(writes.insert(r, fence));
        }
        Set<String> written = new HashSet<>();
        writes.putAll(batch).forEach(w -> written.add(w.stored().id()));
        return written;
    }

    @Override
    public Map<String, QuarantineRecord> saveAll(List<QuarantineRecord> records, Optional<LeaseToken> fence) {
        if (lapsed(fence)) {
            return Map.of();
        }
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        QuarantineLedger.distinct(records).forEach(r -> keys.add(QuarantineItems.key(r.id())));
        Map<String, Map<String, AttributeValue>> stored = new HashMap<>();
        for (Map<String, AttributeValue> item :
                BatchReads.byKey(dynamoDb, table, keys, STORED_PROJECTION, STORED_NAMES)) {
            stored.put(item.get("pk").s(), item);
        }
        List<FencedWrites.Write> batch = new ArrayList<>();
        for (QuarantineRecord r : records) {
            Map<String, AttributeValue> item = stored.get(r.id());
            if (item != null && QuarantineItems.version(item) == r.version()) {
                batch.add(writes.update(r, fence, countedAs(item)));
            }
        }
        Map<String, QuarantineRecord> saved = new LinkedHashMap<>();
        writes.putAll(batch).forEach(w -> saved.put(w.stored().id(), w.stored()));
        return saved;
    }

    private boolean lapsed(Optional<LeaseToken> fence) {
        return fence.isPresent() && fence.get().lapsed(clock.instant());
    }

    @Override
    public List<QuarantineRecord> inState(QuarantineState state, Optional<String> sourceQueue, int limit) {
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":state", QuarantineItems.s(state.name())));
        Map<String, String> names = new HashMap<>(Map.of("#state", "state"));
        QueryRequest.Builder q = QueryRequest.builder()
                .tableName(table)
                .indexName(QuarantineItems.BY_STATE)
                .keyConditionExpression("#state = :state")
                .scanIndexForward(true);
        if (sourceQueue.isPresent()) {
            values.put(":queue", QuarantineItems.s(sourceQueue.get()));
            names.put("#queue", "sourceQueue");
            q.filterExpression("#queue = :queue");
        }
        return query(q.expressionAttributeNames(names).expressionAttributeValues(values), limit);
    }

    @Override
    public List<QuarantineRecord> arrivedBefore(QuarantineState state, Instant cutoff, int limit) {
        return query(byStateArrivedBefore(state, cutoff), limit);
    }

    /**
     * The records of {@code state} that arrived before {@code cutoff} (a record changes only after it arrives), read
     * from {@code byState} page by page and kept when their last change was before it too, until {@code limit}.
     */
    @Override
    public List<QuarantineRecord> unchangedSince(QuarantineState state, Instant cutoff, int limit) {
        return query(
                byStateArrivedBefore(state, cutoff),
                limit,
                r -> r.lastChangedAt().isBefore(cutoff));
    }

    /** The records of {@code state} that arrived before {@code cutoff}, oldest first, from {@code byState}. */
    private QueryRequest.Builder byStateArrivedBefore(QuarantineState state, Instant cutoff) {
        return QueryRequest.builder()
                .tableName(table)
                .indexName(QuarantineItems.BY_STATE)
                .keyConditionExpression("#state = :state AND #arrivedAt < :cutoff")
                .expressionAttributeNames(Map.of("#state", "state", "#arrivedAt", "arrivedAt"))
                .expressionAttributeValues(Map.of(
                        ":state", QuarantineItems.s(state.name()), ":cutoff", QuarantineItems.n(cutoff.toEpochMilli())))
                .scanIndexForward(true);
    }

    /** One read of the queue's counts ({@link LedgerCounts}), whatever the ledger holds. */
    @Override
    public long count(QuarantineState state, String sourceQueue) {
        return countActiveByState(sourceQueue).getOrDefault(state, 0L);
    }

    /** One strongly consistent read of the queue's counts. */
    @Override
    public Map<QuarantineState, Long> countActiveByState(String sourceQueue) {
        return LedgerCounts.active(counts(sourceQueue));
    }

    private Map<String, AttributeValue> counts(String sourceQueue) {
        return dynamoDb.getItem(b ->
                        b.tableName(table).key(LedgerCounts.key(sourceQueue)).consistentRead(true))
                .item();
    }

    /**
     * {@code byState} oldest first, filtered by queue, in pages of 1, 10, 100 and then 1,000 items until one matches:
     * one item read when the state's oldest record is the queue's (a filter applies after a page's limit).
     */
    @Override
    public Optional<QuarantineRecord> oldestActive(QuarantineState state, String sourceQueue) {
        Map<String, AttributeValue> start = null;
        int page = 1;
        do {
            QueryResponse response = dynamoDb.query(QueryRequest.builder()
                    .tableName(table)
                    .indexName(QuarantineItems.BY_STATE)
                    .keyConditionExpression("#state = :state")
                    .filterExpression("#queue = :queue")
                    .expressionAttributeNames(Map.of("#state", "state", "#queue", "sourceQueue"))
                    .expressionAttributeValues(
                            Map.of(":state", QuarantineItems.s(state.name()), ":queue", QuarantineItems.s(sourceQueue)))
                    .scanIndexForward(true)
                    .exclusiveStartKey(start)
                    .limit(page)
                    .build());
            if (!response.items().isEmpty()) {
                // Of two that arrived at once, the index's order is not the id's: take the lowest of the page.
                return response.items().stream().map(QuarantineItems::fromItem).min(OLDEST_FIRST);
            }
            start = response.hasLastEvaluatedKey()
                            && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey()
                    : null;
            page = Math.min(page * 10, PAGE_LIMIT);
        } while (start != null);
        return Optional.empty();
    }

    /** A query on {@code byQueue}, which keeps tombstones. */
    @Override
    public List<QuarantineRecord> ofQueue(String sourceQueue, int limit) {
        return query(
                QueryRequest.builder()
                        .tableName(table)
                        .indexName(QuarantineItems.BY_QUEUE)
                        .keyConditionExpression("#queue = :queue")
                        .expressionAttributeNames(Map.of("#queue", "sourceQueue"))
                        .expressionAttributeValues(Map.of(":queue", QuarantineItems.s(sourceQueue)))
                        .scanIndexForward(true),
                limit);
    }

    /** One strongly consistent read of the queue's counts, tombstones included. */
    @Override
    public Map<QuarantineState, Long> countByState(String sourceQueue) {
        return LedgerCounts.all(counts(sourceQueue));
    }

    /**
     * When the queue's counts are not marked complete: one pass over {@code byQueue} for the records without
     * {@code counted} (only their key, version, state and queue read back), each counted in a transaction that marks it
     * counted on the condition that it still is not and still has the version read (a concurrent write of it has
     * counted it then; a record that changed otherwise is read again). Then the counts are marked complete.
     */
    @Override
    public boolean establishCounts(String sourceQueue, BooleanSupplier inTime) {
        Map<String, AttributeValue> counts = counts(sourceQueue);
        if (counts != null && counts.containsKey(LedgerCounts.COMPLETE)) {
            return true;
        }
        for (var page : dynamoDb.queryPaginator(b -> b.tableName(table)
                .indexName(QuarantineItems.BY_QUEUE)
                .keyConditionExpression("#queue = :queue")
                .filterExpression("attribute_not_exists(counted)")
                .projectionExpression("pk")
                .expressionAttributeNames(Map.of("#queue", "sourceQueue"))
                .expressionAttributeValues(Map.of(":queue", QuarantineItems.s(sourceQueue))))) {
            for (Map<String, AttributeValue> found : page.items()) {
                if (!inTime.getAsBoolean()) {
                    return false;
                }
                countOnce(found.get("pk").s());
            }
        }
        dynamoDb.updateItem(b -> b.tableName(table)
                .key(LedgerCounts.key(sourceQueue))
                .updateExpression("SET #complete = :true")
                .expressionAttributeNames(Map.of("#complete", LedgerCounts.COMPLETE))
                .expressionAttributeValues(Map.of(":true", AttributeValue.fromBool(true))));
        return true;
    }

    /** Counts the record {@code id} unless it is counted already (read strongly consistent, then a transaction). */
    private void countOnce(String id) {
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table)
                            .key(QuarantineItems.key(id))
                            .consistentRead(true)
                            .projectionExpression(STORED_PROJECTION)
                            .expressionAttributeNames(STORED_NAMES))
                    .item();
            if (item == null || item.isEmpty() || item.containsKey(LedgerCounts.COUNTED)) {
                return;
            }
            LedgerCounts.Tally tally = LedgerCounts.Tally.of(item);
            try {
                dynamoDb.transactWriteItems(b -> b.transactItems(
                        TransactWriteItem.builder()
                                .update(Update.builder()
                                        .tableName(table)
                                        .key(QuarantineItems.key(id))
                                        .updateExpression("SET #counted = :true")
                                        .conditionExpression("attribute_not_exists(#counted) AND #version = :version")
                                        .expressionAttributeNames(
                                                Map.of("#counted", LedgerCounts.COUNTED, "#version", "version"))
                                        .expressionAttributeValues(Map.of(
                                                ":true",
                                                AttributeValue.fromBool(true),
                                                ":version",
                                                item.get("version")))
                                        .build())
                                .build(),
                        TransactWriteItem.builder()
                                .update(LedgerCounts.add(table, tally.sourceQueue(), Map.of(tally.attribute(), 1L)))
                                .build()));
                return;
            } catch (TransactionCanceledException e) {
                if (attempt >= 8) {
                    throw e; // the item keeps changing or its counts keep conflicting: the next call goes on
                }
            }
        }
    }

    /** A range of {@code byQueue}'s sort key, the arrival: only the period's records are read. */
    @Override
    public List<QuarantineRecord> ofQueueSince(String sourceQueue, Instant from, int limit) {
        return query(
                QueryRequest.builder()
                        .tableName(table)
                        .indexName(QuarantineItems.BY_QUEUE)
                        .keyConditionExpression("#queue = :queue AND #arrivedAt >= :from")
                        .expressionAttributeNames(Map.of("#queue", "sourceQueue", "#arrivedAt", "arrivedAt"))
                        .expressionAttributeValues(Map.of(
                                ":queue",
                                QuarantineItems.s(sourceQueue),
                                ":from",
                                QuarantineItems.n(from.toEpochMilli())))
                        .scanIndexForward(true),
                limit);
    }

    /** {@code byQueue} before the instant, newest first, in small pages until a record matches. */
    @Override
    public Optional<QuarantineRecord> lastOfQueueBefore(
            String sourceQueue, Instant before, Predicate<QuarantineRecord> matching) {
        return query(
                        QueryRequest.builder()
                                .tableName(table)
                                .indexName(QuarantineItems.BY_QUEUE)
                                .keyConditionExpression("#queue = :queue AND #arrivedAt < :before")
                                .expressionAttributeNames(Map.of("#queue", "sourceQueue", "#arrivedAt", "arrivedAt"))
                                .expressionAttributeValues(Map.of(
                                        ":queue",
                                        QuarantineItems.s(sourceQueue),
                                        ":before",
                                        QuarantineItems.n(before.toEpochMilli())))
                                .scanIndexForward(false),
                        1,
                        matching)
                .stream()
                .findFirst();
    }

    private List<QuarantineRecord> query(QueryRequest.Builder request, int limit) {
        return query(request, limit, r -> true);
    }

    private List<QuarantineRecord> query(QueryRequest.Builder request, int limit, Predicate<QuarantineRecord> keep) {
        List<QuarantineRecord> records = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        // A small limit asks for small pages (DynamoDB's own is 1 MB): the listing of the oldest record reads a hundred
        // items, not thousands. Filters apply after the page's limit, so pages are read until the limit is reached.
        Integer pageLimit = limit < PAGE_LIMIT ? Math.max(limit, MIN_PAGE) : null;
        do {
            QueryRequest r = request.exclusiveStartKey(start).limit(pageLimit).build();
            QueryResponse page = dynamoDb.query(r);
            for (Map<String, AttributeValue> item : page.items()) {
                QuarantineRecord found = QuarantineItems.fromItem(item);
                if (!keep.test(found)) {
                    continue;
                }
                records.add(found);
                if (records.size() >= limit) {
                    return records;
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return records;
    }
}
