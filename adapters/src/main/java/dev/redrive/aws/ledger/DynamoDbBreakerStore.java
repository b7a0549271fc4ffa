package dev.redrive.aws.ledger;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.names.RedriveNames.Dependencies;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * Breakers in the control table ({@code pk = breaker#<dependency>}, {@code sk = breaker}; times in epoch
 * milliseconds). A read is one consistent GetItem (callers cache it for a few seconds); a transition is one PutItem
 * conditional on the token it was decided from ({@code attribute_not_exists(pk)} for token 0).
 */
public final class DynamoDbBreakerStore implements BreakerStore {

    static final String SK = "breaker";

    private final DynamoDbClient dynamoDb;
    private final String table;

    public DynamoDbBreakerStore(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    static Map<String, AttributeValue> key(String dependency) {
        return Map.of(
                "pk",
                AttributeValue.fromS(Dependencies.BREAKER_KEY_PREFIX + dependency),
                "sk",
                AttributeValue.fromS(SK));
    }

    @Override
    public BreakerState read(String dependency) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(key(dependency)).consistentRead(true))
                .item();
        if (item == null || item.isEmpty()) {
            return BreakerState.closed();
        }
        return new BreakerState(
                BreakerState.Status.valueOf(item.get("status").s()),
                Long.parseLong(item.get("token").n()),
                instant(item, "openedAt"),
                item.containsKey("openPeriodMs")
                        ? Duration.ofMillis(
                                Long.parseLong(item.get("openPeriodMs").n()))
                        : null,
                instant(item, "openUntil"),
                instant(item, "probeLeaseUntil"));
    }

    @Override
    public boolean transition(String dependency, long expectedToken, BreakerState next) {
        Map<String, AttributeValue> item = new HashMap<>(key(dependency));
        item.put("status", AttributeValue.fromS(next.status().name()));
        item.put("token", number(next.token()));
        if (next.openedAt() != null) {
            item.put("openedAt", number(next.openedAt().toEpochMilli()));
        }
        if (next.openPeriod() != null) {
            item.put("openPeriodMs", number(next.openPeriod().toMillis()));
        }
        if (next.openUntil() != null) {
            item.put("openUntil", number(next.openUntil().toEpochMilli()));
        }
        if (next.probeLeaseUntil() != null) {
            item.put("probeLeaseUntil", number(next.probeLeaseUntil().toEpochMilli()));
        }
        try {
            if (expectedToken == 0) {
                dynamoDb.putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)"));
            } else {
                dynamoDb.putItem(b -> b.tableName(table)
                        .item(item)
                        .conditionExpression("#token = :expected")
                        .expressionAttributeNames(Map.of("#token", "token"))
                        .expressionAttributeValues(Map.of(":expected", number(expectedToken))));
            }
            return true;
        } catch (ConditionalCheckFailedException anotherSandboxFirst) {
            return false;
        }
    }

    private static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private static Instant instant(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : Instant.ofEpochMilli(Long.parseLong(value.n()));
    }
}
