package dev.redrive.aws.ledger;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.BreakerWrite;
import dev.redrive.core.names.RedriveNames.Dependencies;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Breakers in the control table ({@code pk = breaker#<dependency>}, {@code sk = breaker}; times in epoch
 * milliseconds). A read is one consistent GetItem (callers cache it for a few seconds); a transition is one UpdateItem
 * conditional on the token it was decided from ({@code attribute_not_exists(pk)} for token 0). The same UpdateItem
 * writes the transition into the history: slot {@code history<token mod 20>}, so the item keeps the last
 * {@link BreakerTransition#KEPT} transitions without a read, and a transition refused writes neither. A breaker held
 * by maintenance windows carries {@code held = true}; the same update takes part in a window's change
 * ({@link DynamoDbMaintenanceWindows#change}).
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
        // the state alone: the hot path does not carry the history
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table)
                        .key(key(dependency))
                        .consistentRead(true)
                        .projectionExpression(
                                "#status, #token, openedAt, openPeriodMs, openUntil, probeLeaseUntil, held")
                        .expressionAttributeNames(Map.of("#status", "status", "#token", "token")))
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
                instant(item, "probeLeaseUntil"),
                // a breaker written before holds were marked is not held
                item.containsKey("held") && item.get("held").bool());
    }

    @Override
    public boolean transition(String dependency, long expectedToken, BreakerState next, BreakerTransition entry) {
        Update u = update(table, new BreakerWrite(dependency, expectedToken, next, entry));
        try {
            dynamoDb.updateItem(b -> b.tableName(u.tableName())
                    .key(u.key())
                    .updateExpression(u.updateExpression())
                    .conditionExpression(u.conditionExpression())
                    .expressionAttributeNames(u.expressionAttributeNames())
                    .expressionAttributeValues(u.expressionAttributeValues()));
            return true;
        } catch (ConditionalCheckFailedException anotherSandboxFirst) {
            return false;
        }
    }

    /**
     * The write of {@code w} in {@code table}: one update of the breaker's item, conditional on its token, that writes the
     * state and its history slot (also the part a transaction of a maintenance window's change takes).
     */
    static Update update(String table, BreakerWrite w) {
        BreakerState next = w.next();
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        List<String> set = new ArrayList<>();
        List<String> remove = new ArrayList<>();
        set(set, names, values, "status", AttributeValue.fromS(next.status().name()));
        set(set, names, values, "token", number(next.token()));
        setOrRemove(set, remove, names, values, "openedAt", millis(next.openedAt()));
        setOrRemove(
                set,
                remove,
                names,
                values,
                "openPeriodMs",
                next.openPeriod() == null ? null : number(next.openPeriod().toMillis()));
        setOrRemove(set, remove, names, values, "openUntil", millis(next.openUntil()));
        setOrRemove(set, remove, names, values, "probeLeaseUntil", millis(next.probeLeaseUntil()));
        setOrRemove(set, remove, names, values, "held", next.held() ? AttributeValue.fromBool(true) : null);
        set(set, names, values, slot(w.entry().slot()), AttributeValue.fromM(entryItem(w.entry())));
        String update =
                "SET " + String.join(", ", set) + (remove.isEmpty() ? "" : " REMOVE " + String.join(", ", remove));
        String condition;
        if (w.expectedToken() == 0) {
            condition = "attribute_not_exists(pk)";
        } else {
            condition = "#token = :expected";
            values.put(":expected", number(w.expectedToken()));
        }
        return Update.builder()
                .tableName(table)
                .key(key(w.dependency()))
                .updateExpression(update)
                .conditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .build();
    }

    @Override
    public List<BreakerTransition> history(String dependency) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(key(dependency)).consistentRead(true))
                .item();
        if (item == null || item.isEmpty()) {
            return List.of();
        }
        long token = Long.parseLong(item.get("token").n());
        List<BreakerTransition> history = new ArrayList<>();
        for (int slot = 0; slot < BreakerTransition.KEPT; slot++) {
            AttributeValue kept = item.get(slot(slot));
            if (kept != null) {
                BreakerTransition entry = entry(kept.m());
                if (entry.token() > token - BreakerTransition.KEPT && entry.token() <= token) {
                    history.add(entry);
                }
            }
        }
        history.sort(Comparator.comparingLong(BreakerTransition::token).reversed());
        return List.copyOf(history);
    }

    /** The attribute of history slot {@code n}: {@code history00} to {@code history19}. */
    static String slot(int n) {
        return String.format("history%02d", n);
    }

    private static Map<String, AttributeValue> entryItem(BreakerTransition entry) {
        return Map.of(
                "token", number(entry.token()),
                "at", number(entry.at().toEpochMilli()),
                "from", AttributeValue.fromS(entry.from().name()),
                "to", AttributeValue.fromS(entry.to().name()),
                "reason", AttributeValue.fromS(entry.reason()));
    }

    private static BreakerTransition entry(Map<String, AttributeValue> m) {
        return new BreakerTransition(
                Long.parseLong(m.get("token").n()),
                Instant.ofEpochMilli(Long.parseLong(m.get("at").n())),
                BreakerState.Status.valueOf(m.get("from").s()),
                BreakerState.Status.valueOf(m.get("to").s()),
                m.get("reason").s());
    }

    private static void set(
            List<String> set,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            String attribute,
            AttributeValue value) {
        names.put("#" + attribute, attribute);
        values.put(":" + attribute, value);
        set.add("#" + attribute + " = :" + attribute);
    }

    private static void setOrRemove(
            List<String> set,
            List<String> remove,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            String attribute,
            AttributeValue value) {
        if (value == null) {
            names.put("#" + attribute, attribute);
            remove.add("#" + attribute);
        } else {
            set(set, names, values, attribute, value);
        }
    }

    private static AttributeValue millis(Instant instant) {
        return instant == null ? null : number(instant.toEpochMilli());
    }

    private static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private static Instant instant(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : Instant.ofEpochMilli(Long.parseLong(value.n()));
    }
}
