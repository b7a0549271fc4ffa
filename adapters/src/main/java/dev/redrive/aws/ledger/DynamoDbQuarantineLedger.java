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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The quarantine ledger on DynamoDB. Every write is conditional on the version read. A fenced write (the sweeper's)
 * is a two-item transaction: a ConditionCheck that the lease in the control table still carries the sweeper's token
 * and has not lapsed, and the write itself — so once another sweeper has taken over, the old one changes nothing.
 */
public final class DynamoDbQuarantineLedger implements QuarantineLedger {

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final String controlTable;
    private final Clock clock;

    public DynamoDbQuarantineLedger(DynamoDbClient dynamoDb, String table, String controlTable, Clock clock) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.controlTable = controlTable;
        this.clock = clock;
    }

    @Override
    public Optional<QuarantineRecord> find(String id) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table).key(QuarantineItems.key(id))
                .consistentRead(true)).item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(QuarantineItems.fromItem(item));
    }

    @Override
    public boolean insertIfAbsent(QuarantineRecord record, Optional<LeaseToken> fence) {
        QuarantineRecord first = record.withVersion(1);
        Put put = Put.builder().tableName(table).item(QuarantineItems.toItem(first))
                .conditionExpression("attribute_not_exists(pk)").build();
        return write(put, fence);
    }

    @Override
    public Optional<QuarantineRecord> save(QuarantineRecord record, Optional<LeaseToken> fence) {
        QuarantineRecord next = record.withVersion(record.version() + 1);
        Put put = Put.builder().tableName(table).item(QuarantineItems.toItem(next))
                .conditionExpression("#version = :expected")
                .expressionAttributeNames(Map.of("#version", "version"))
                .expressionAttributeValues(Map.of(":expected", QuarantineItems.n(record.version())))
                .build();
        return write(put, fence) ? Optional.of(next) : Optional.empty();
    }

    private boolean write(Put put, Optional<LeaseToken> fence) {
        if (fence.isEmpty()) {
            try {
                dynamoDb.putItem(b -> b.tableName(put.tableName()).item(put.item())
                        .conditionExpression(put.conditionExpression())
                        .expressionAttributeNames(put.hasExpressionAttributeNames() ? put.expressionAttributeNames()
                                : null)
                        .expressionAttributeValues(put.hasExpressionAttributeValues()
                                ? put.expressionAttributeValues() : null));
                return true;
            } catch (ConditionalCheckFailedException e) {
                return false;
            }
        }
        LeaseToken f = fence.get();
        TransactWriteItem leaseCheck = TransactWriteItem.builder().conditionCheck(c -> c.tableName(controlTable)
                .key(DynamoDbLeaseStore.key(f.name()))
                .conditionExpression(DynamoDbLeaseStore.holdsCondition())
                .expressionAttributeNames(Map.of("#token", "token", "#expiresAt", "expiresAt"))
                .expressionAttributeValues(Map.of(
                        ":fenceToken", QuarantineItems.n(f.token()),
                        ":fenceNow", QuarantineItems.n(clock.instant().toEpochMilli())))).build();
        try {
            dynamoDb.transactWriteItems(b -> b.transactItems(leaseCheck, TransactWriteItem.builder().put(put)
                    .build()));
            return true;
        } catch (TransactionCanceledException e) {
            return false;
        }
    }

    @Override
    public List<QuarantineRecord> inState(QuarantineState state, Optional<String> sourceQueue, int limit) {
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":state", QuarantineItems.s(state.name())));
        Map<String, String> names = new HashMap<>(Map.of("#state", "state"));
        QueryRequest.Builder q = QueryRequest.builder().tableName(table).indexName(QuarantineItems.BY_STATE)
                .keyConditionExpression("#state = :state").scanIndexForward(true);
        if (sourceQueue.isPresent()) {
            values.put(":queue", QuarantineItems.s(sourceQueue.get()));
            names.put("#queue", "sourceQueue");
            q.filterExpression("#queue = :queue");
        }
        return query(q.expressionAttributeNames(names).expressionAttributeValues(values), limit);
    }

    @Override
    public List<QuarantineRecord> arrivedBefore(QuarantineState state, Instant cutoff, int limit) {
        return query(QueryRequest.builder().tableName(table).indexName(QuarantineItems.BY_STATE)
                .keyConditionExpression("#state = :state AND #arrivedAt < :cutoff")
                .expressionAttributeNames(Map.of("#state", "state", "#arrivedAt", "arrivedAt"))
                .expressionAttributeValues(Map.of(":state", QuarantineItems.s(state.name()),
                        ":cutoff", QuarantineItems.n(cutoff.toEpochMilli())))
                .scanIndexForward(true), limit);
    }

    /** Records of one source queue (any state), oldest first: for operators' listings. */
    public List<QuarantineRecord> ofQueue(String sourceQueue, int limit) {
        return query(QueryRequest.builder().tableName(table).indexName(QuarantineItems.BY_QUEUE)
                .keyConditionExpression("#queue = :queue")
                .expressionAttributeNames(Map.of("#queue", "sourceQueue"))
                .expressionAttributeValues(Map.of(":queue", QuarantineItems.s(sourceQueue)))
                .scanIndexForward(true), limit);
    }

    private List<QuarantineRecord> query(QueryRequest.Builder request, int limit) {
        List<QuarantineRecord> records = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest r = request.exclusiveStartKey(start).build();
            QueryResponse page = dynamoDb.query(r);
            for (Map<String, AttributeValue> item : page.items()) {
                records.add(QuarantineItems.fromItem(item));
                if (records.size() >= limit) {
                    return records;
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey()
                    : null;
        } while (start != null);
        return records;
    }
}
