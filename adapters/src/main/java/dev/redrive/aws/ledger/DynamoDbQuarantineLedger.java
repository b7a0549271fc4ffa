package dev.redrive.aws.ledger;

import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * The quarantine ledger on DynamoDB. Every write is conditional on the version read. A fenced write (the sweeper's)
 * is first checked against the lease in the control table (a consistent read: still this token, not lapsed), and the
 * record carries the highest fencing token that wrote it: a write with a lower token is refused by the record itself.
 * So once another sweeper has taken over, the old one's writes are rejected — by the lease check, and, in the instant
 * between that check and the write, by every record the new holder has touched.
 *
 * <p>(A TransactWriteItems with a ConditionCheck on the lease would say the same in one call, but costs two write
 * units per item on DynamoDB and is quadratic on moto, which copies whole tables per transaction.)
 */
public final class DynamoDbQuarantineLedger implements QuarantineLedger {

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final Clock clock;
    private final DynamoDbLeaseStore leases;

    public DynamoDbQuarantineLedger(DynamoDbClient dynamoDb, String table, String controlTable, Clock clock) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.clock = clock;
        this.leases = new DynamoDbLeaseStore(dynamoDb, controlTable);
    }

    @Override
    public Optional<QuarantineRecord> find(String id) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(QuarantineItems.key(id)).consistentRead(true))
                .item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(QuarantineItems.fromItem(item));
    }

    @Override
    public boolean insertIfAbsent(QuarantineRecord record, Optional<LeaseToken> fence) {
        return write(record.withVersion(1), "attribute_not_exists(pk)", Map.of(), Map.of(), fence);
    }

    @Override
    public Optional<QuarantineRecord> save(QuarantineRecord record, Optional<LeaseToken> fence) {
        QuarantineRecord next = record.withVersion(record.version() + 1);
        boolean written = write(
                next,
                "#version = :expected",
                Map.of("#version", "version"),
                Map.of(":expected", QuarantineItems.n(record.version())),
                fence);
        return written ? Optional.of(next) : Optional.empty();
    }

    private boolean write(
            QuarantineRecord record,
            String condition,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            Optional<LeaseToken> fence) {
        Map<String, AttributeValue> item = new HashMap<>(QuarantineItems.toItem(record));
        Map<String, String> allNames = new HashMap<>(names);
        Map<String, AttributeValue> allValues = new HashMap<>(values);
        String fullCondition = condition;
        if (fence.isPresent()) {
            LeaseToken f = fence.get();
            if (!leases.holds(f, clock.instant())) {
                return false;
            }
            item.put("fence", QuarantineItems.n(f.token()));
            allNames.put("#fence", "fence");
            allValues.put(":fence", QuarantineItems.n(f.token()));
            fullCondition = "(" + condition + ") AND (attribute_not_exists(#fence) OR #fence <= :fence)";
        }
        String finalCondition = fullCondition;
        try {
            dynamoDb.putItem(b -> b.tableName(table)
                    .item(item)
                    .conditionExpression(finalCondition)
                    .expressionAttributeNames(allNames.isEmpty() ? null : allNames)
                    .expressionAttributeValues(allValues.isEmpty() ? null : allValues));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
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

    private List<QuarantineRecord> query(QueryRequest.Builder request, int limit) {
        return query(request, limit, r -> true);
    }

    private List<QuarantineRecord> query(QueryRequest.Builder request, int limit, Predicate<QuarantineRecord> keep) {
        List<QuarantineRecord> records = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest r = request.exclusiveStartKey(start).build();
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
