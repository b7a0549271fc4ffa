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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

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
        FencedWrites.Write w = writes.update(record, fence);
        return writes.put(w) ? Optional.of(w.stored()) : Optional.empty();
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
        List<FencedWrites.Write> batch = new ArrayList<>();
        for (QuarantineRecord r : QuarantineLedger.distinct(records)) {
            batch.add(writes.update(r, fence));
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

    /** A count query on {@code byState}, filtered by queue: no items are read back. */
    @Override
    public long count(QuarantineState state, String sourceQueue) {
        long total = 0;
        for (var page : dynamoDb.queryPaginator(b -> b.tableName(table)
                .indexName(QuarantineItems.BY_STATE)
                .keyConditionExpression("#state = :state")
                .filterExpression("#queue = :queue")
                .expressionAttributeNames(Map.of("#state", "state", "#queue", "sourceQueue"))
                .expressionAttributeValues(
                        Map.of(":state", QuarantineItems.s(state.name()), ":queue", QuarantineItems.s(sourceQueue)))
                .select(Select.COUNT))) {
            total += page.count();
        }
        return total;
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

    /**
     * One pass over {@code byQueue} reading back each item's state and nothing else (a projection; a tombstone's is
     * {@code storedState}). A count query per state would not be cheaper: {@code byState} leaves tombstones out, and
     * DynamoDB charges a query for every item it evaluates, whatever it returns. So this pass costs the read units of
     * the queue's records, in 1 MB pages, but carries a few bytes per record instead of the record.
     */
    @Override
    public Map<QuarantineState, Long> countByState(String sourceQueue) {
        Map<QuarantineState, Long> counts = new EnumMap<>(QuarantineState.class);
        for (var page : dynamoDb.queryPaginator(b -> b.tableName(table)
                .indexName(QuarantineItems.BY_QUEUE)
                .keyConditionExpression("#queue = :queue")
                .projectionExpression("#state, storedState")
                .expressionAttributeNames(Map.of("#queue", "sourceQueue", "#state", "state"))
                .expressionAttributeValues(Map.of(":queue", QuarantineItems.s(sourceQueue))))) {
            for (Map<String, AttributeValue> item : page.items()) {
                AttributeValue state = item.containsKey("state") ? item.get("state") : item.get("storedState");
                counts.merge(QuarantineState.valueOf(state.s()), 1L, Long::sum);
            }
        }
        return counts;
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
