package dev.redrive.aws.ledger;

import dev.redrive.core.lease.Lease;
import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * Leases in the control table ({@code pk = lease#<name>}, {@code sk = lease}). Acquiring is one UpdateItem: it
 * succeeds only when the lease is absent or lapsed, adds one to the fencing token and returns it — one write, no
 * read.
 */
public final class DynamoDbLeaseStore implements LeaseStore {

    static final String SK = "lease";

    private final DynamoDbClient dynamoDb;
    private final String table;

    public DynamoDbLeaseStore(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    static Map<String, AttributeValue> key(String name) {
        return Map.of("pk", AttributeValue.fromS("lease#" + name), "sk", AttributeValue.fromS(SK));
    }

    @Override
    public Optional<Lease> acquire(String name, String owner, Duration duration, Instant now) {
        Instant expiresAt = now.plus(duration);
        try {
            Map<String, AttributeValue> after = dynamoDb.updateItem(b -> b.tableName(table)
                            .key(key(name))
                            .updateExpression("SET #owner = :owner, #expiresAt = :expiresAt ADD #token :one")
                            .conditionExpression("attribute_not_exists(pk) OR #expiresAt <= :now")
                            .expressionAttributeNames(
                                    Map.of("#owner", "owner", "#expiresAt", "expiresAt", "#token", "token"))
                            .expressionAttributeValues(Map.of(
                                    ":owner", AttributeValue.fromS(owner),
                                    ":expiresAt", AttributeValue.fromN(Long.toString(expiresAt.toEpochMilli())),
                                    ":now", AttributeValue.fromN(Long.toString(now.toEpochMilli())),
                                    ":one", AttributeValue.fromN("1")))
                            .returnValues(ReturnValue.ALL_NEW))
                    .attributes();
            return Optional.of(
                    new Lease(name, owner, Long.parseLong(after.get("token").n()), expiresAt));
        } catch (ConditionalCheckFailedException held) {
            return Optional.empty();
        }
    }

    @Override
    public void release(Lease lease, Instant now) {
        try {
            dynamoDb.updateItem(b -> b.tableName(table)
                    .key(key(lease.name()))
                    .updateExpression("SET #expiresAt = :now")
                    .conditionExpression("#token = :token")
                    .expressionAttributeNames(Map.of("#expiresAt", "expiresAt", "#token", "token"))
                    .expressionAttributeValues(Map.of(
                            ":now", AttributeValue.fromN(Long.toString(now.toEpochMilli())),
                            ":token", AttributeValue.fromN(Long.toString(lease.token())))));
        } catch (ConditionalCheckFailedException takenOver) {
            // someone else holds it now: nothing of ours to release
        }
    }

    @Override
    public boolean holds(LeaseToken fence, Instant now) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(key(fence.name())).consistentRead(true))
                .item();
        if (item == null || item.isEmpty()) {
            return false;
        }
        return Long.parseLong(item.get("token").n()) == fence.token()
                && Long.parseLong(item.get("expiresAt").n()) > now.toEpochMilli();
    }
}
