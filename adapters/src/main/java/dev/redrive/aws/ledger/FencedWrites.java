package dev.redrive.aws.ledger;

import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The quarantine ledger's conditional writes: each record's put carries the version it was read at and, under a
 * fence, the fencing token, in its own condition ({@code (<version or absence>) AND (attribute_not_exists(fence) OR
 * fence <= :token)}); batches go ten to a TransactWriteItems. A record whose condition fails cancels its transaction;
 * the cancellation reasons name it and the others are written again without it (after {@value #BATCH_ROUNDS} rounds,
 * or when the reasons cannot be matched, one by one).
 */
final class FencedWrites {

    /** Records per transaction: ten items of at most 400 KB stay inside a transaction's 4 MB. */
    static final int WRITE_BATCH = 10;
    /** How often a batch is tried again after a cancellation before its records are written one by one. */
    private static final int BATCH_ROUNDS = 3;

    private final DynamoDbClient dynamoDb;
    private final String table;

    FencedWrites(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /** One conditional put of a record as it will be stored. */
    record Write(QuarantineRecord stored, Put put) {}

    Write insert(QuarantineRecord record, Optional<LeaseToken> fence) {
        return write(record.withVersion(1), "attribute_not_exists(pk)", Map.of(), Map.of(), fence);
    }

    Write update(QuarantineRecord record, Optional<LeaseToken> fence) {
        return write(
                record.withVersion(record.version() + 1),
                "#version = :expected",
                Map.of("#version", "version"),
                Map.of(":expected", QuarantineItems.n(record.version())),
                fence);
    }

    private Write write(
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
            long token = fence.get().token();
            item.put("fence", QuarantineItems.n(token));
            allNames.put("#fence", "fence");
            allValues.put(":fence", QuarantineItems.n(token));
            fullCondition = "(" + condition + ") AND (attribute_not_exists(#fence) OR #fence <= :fence)";
        }
        return new Write(
                record,
                Put.builder()
                        .tableName(table)
                        .item(item)
                        .conditionExpression(fullCondition)
                        .expressionAttributeNames(allNames.isEmpty() ? null : allNames)
                        .expressionAttributeValues(allValues.isEmpty() ? null : allValues)
                        .build());
    }

    boolean put(Write w) {
        try {
            dynamoDb.putItem(b -> b.tableName(table)
                    .item(w.put().item())
                    .conditionExpression(w.put().conditionExpression())
                    .expressionAttributeNames(
                            w.put().hasExpressionAttributeNames() ? w.put().expressionAttributeNames() : null)
                    .expressionAttributeValues(
                            w.put().hasExpressionAttributeValues() ? w.put().expressionAttributeValues() : null));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    /** The writes that were accepted, ten to a transaction. */
    List<Write> putAll(List<Write> writes) {
        List<Write> accepted = new ArrayList<>();
        for (int from = 0; from < writes.size(); from += WRITE_BATCH) {
            List<Write> left = writes.subList(from, Math.min(writes.size(), from + WRITE_BATCH));
            for (int round = 0; left.size() > 1 && round < BATCH_ROUNDS; round++) {
                left = transact(left, accepted);
            }
            for (Write w : left) {
                if (put(w)) {
                    accepted.add(w);
                }
            }
        }
        return accepted;
    }

    /**
     * Writes {@code batch} in one transaction; adds what it wrote to {@code accepted} and returns what is still to be
     * written: after a cancellation, every record but those whose own condition failed (they are refused).
     */
    private List<Write> transact(List<Write> batch, List<Write> accepted) {
        List<TransactWriteItem> items = new ArrayList<>();
        for (Write w : batch) {
            items.add(TransactWriteItem.builder().put(w.put()).build());
        }
        try {
            dynamoDb.transactWriteItems(b -> b.transactItems(items));
            accepted.addAll(batch);
            return List.of();
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
            if (reasons.size() != batch.size()) {
                return batch; // cannot tell which: the caller writes them one by one
            }
            List<Write> again = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                if (!"ConditionalCheckFailed".equals(reasons.get(i).code())) {
                    again.add(batch.get(i)); // cancelled for another's refusal, or a conflict: tried again
                }
            }
            return again;
        }
    }
}
