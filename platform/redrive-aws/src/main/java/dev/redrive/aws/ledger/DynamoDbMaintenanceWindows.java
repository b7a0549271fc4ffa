package dev.redrive.aws.ledger;

import dev.redrive.core.breaker.BreakerWrite;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.WindowChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Maintenance windows in the control table: {@code pk = window}, {@code sk = <id>}. The breakers they hold are in the same
 * table ({@link DynamoDbBreakerStore}), so a window's change and its breakers' transitions are one TransactWriteItems.
 */
public final class DynamoDbMaintenanceWindows implements MaintenanceWindows {

    private static final AttributeValue PK = AttributeValue.fromS("window");

    private final DynamoDbClient dynamoDb;
    private final String table;

    public DynamoDbMaintenanceWindows(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    @Override
    public void add(MaintenanceWindow w) {
        dynamoDb.putItem(b -> b.tableName(table).item(item(w)));
    }

    /**
     * The window's change, conditional on the window as read (every attribute it is stored with, or its absence), with
     * the breakers' updates, each conditional on its token: one conditional write without breakers, else one
     * TransactWriteItems.
     */
    @Override
    public boolean change(WindowChange change, List<BreakerWrite> breakers) {
        TransactWriteItem window = windowWrite(change);
        try {
            if (breakers.isEmpty()) {
                if (window.put() != null) {
                    Put p = window.put();
                    dynamoDb.putItem(b -> b.tableName(p.tableName())
                            .item(p.item())
                            .conditionExpression(p.conditionExpression())
                            .expressionAttributeNames(
                                    p.hasExpressionAttributeNames() ? p.expressionAttributeNames() : null)
                            .expressionAttributeValues(
                                    p.hasExpressionAttributeValues() ? p.expressionAttributeValues() : null));
                } else {
                    Delete d = window.delete();
                    dynamoDb.deleteItem(b -> b.tableName(d.tableName())
                            .key(d.key())
                            .conditionExpression(d.conditionExpression())
                            .expressionAttributeNames(
                                    d.hasExpressionAttributeNames() ? d.expressionAttributeNames() : null)
                            .expressionAttributeValues(
                                    d.hasExpressionAttributeValues() ? d.expressionAttributeValues() : null));
                }
                return true;
            }
            List<TransactWriteItem> items = new ArrayList<>(List.of(window));
            breakers.forEach(w -> items.add(TransactWriteItem.builder()
                    .update(DynamoDbBreakerStore.update(table, w))
                    .build()));
            dynamoDb.transactWriteItems(b -> b.transactItems(items));
            return true;
        } catch (ConditionalCheckFailedException changed) {
            return false;
        } catch (TransactionCanceledException cancelled) {
            // a condition that failed, or another transaction on the same items (TransactionConflict): read again
            if (cancelled.hasCancellationReasons()
                    && cancelled.cancellationReasons().stream()
                            .anyMatch(r -> "ConditionalCheckFailed".equals(r.code())
                                    || "TransactionConflict".equals(r.code()))) {
                return false;
            }
            throw cancelled;
        }
    }

    /** The window's put or delete, conditional on the window as it was read. */
    private TransactWriteItem windowWrite(WindowChange change) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        String condition = expecting(change.expected(), names, values);
        Map<String, String> n = names.isEmpty() ? null : names;
        Map<String, AttributeValue> v = values.isEmpty() ? null : values;
        if (change.next().isPresent()) {
            return TransactWriteItem.builder()
                    .put(Put.builder()
                            .tableName(table)
                            .item(item(change.next().get()))
                            .conditionExpression(condition)
                            .expressionAttributeNames(n)
                            .expressionAttributeValues(v)
                            .build())
                    .build();
        }
        return TransactWriteItem.builder()
                .delete(Delete.builder()
                        .tableName(table)
                        .key(Map.of("pk", PK, "sk", AttributeValue.fromS(change.id())))
                        .conditionExpression(condition)
                        .expressionAttributeNames(n)
                        .expressionAttributeValues(v)
                        .build())
                .build();
    }

    /** The condition that the stored window is still {@code expected} (absent when empty). */
    private static String expecting(
            Optional<MaintenanceWindow> expected, Map<String, String> names, Map<String, AttributeValue> values) {
        if (expected.isEmpty()) {
            return "attribute_not_exists(pk)";
        }
        List<String> terms = new ArrayList<>();
        Map<String, AttributeValue> item = item(expected.get());
        item.forEach((attribute, value) -> {
            if (attribute.equals("pk") || attribute.equals("sk")) {
                return;
            }
            names.put("#" + attribute, attribute);
            values.put(":was_" + attribute, value);
            terms.add(
                    attribute.equals("holdsBreaker") && !value.bool()
                            // a window stored before windows could hold breakers has no such attribute
                            ? "(attribute_not_exists(#holdsBreaker) OR #holdsBreaker = :was_holdsBreaker)"
                            : "#" + attribute + " = :was_" + attribute);
        });
        terms.sort(null);
        return "attribute_exists(pk) AND " + String.join(" AND ", terms);
    }

    private static Map<String, AttributeValue> item(MaintenanceWindow w) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", PK);
        item.put("sk", AttributeValue.fromS(w.id()));
        item.put("dependency", AttributeValue.fromS(w.dependency()));
        item.put("start", AttributeValue.fromN(Long.toString(w.start().toEpochMilli())));
        item.put("end", AttributeValue.fromN(Long.toString(w.end().toEpochMilli())));
        item.put("approvedBy", AttributeValue.fromS(w.approvedBy()));
        item.put("reason", AttributeValue.fromS(w.reason().isEmpty() ? "-" : w.reason()));
        item.put("holdsBreaker", AttributeValue.fromBool(w.holdsBreaker()));
        return item;
    }

    @Override
    public boolean remove(String id) {
        Map<String, AttributeValue> old = dynamoDb.deleteItem(b -> b.tableName(table)
                        .key(Map.of("pk", PK, "sk", AttributeValue.fromS(id)))
                        .returnValues(ReturnValue.ALL_OLD))
                .attributes();
        return old != null && !old.isEmpty();
    }

    @Override
    public List<MaintenanceWindow> list() {
        List<MaintenanceWindow> windows = new ArrayList<>();
        for (var page : dynamoDb.queryPaginator(b -> b.tableName(table)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", PK))
                .consistentRead(true))) {
            page.items().forEach(item -> windows.add(window(item)));
        }
        windows.sort(Comparator.comparing(MaintenanceWindow::start).thenComparing(MaintenanceWindow::id));
        return windows;
    }

    @Override
    public Optional<MaintenanceWindow> find(String id) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table)
                        .key(Map.of("pk", PK, "sk", AttributeValue.fromS(id)))
                        .consistentRead(true))
                .item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(window(item));
    }

    private static MaintenanceWindow window(Map<String, AttributeValue> item) {
        String reason = item.get("reason").s();
        return new MaintenanceWindow(
                item.get("sk").s(),
                item.get("dependency").s(),
                Instant.ofEpochMilli(Long.parseLong(item.get("start").n())),
                Instant.ofEpochMilli(Long.parseLong(item.get("end").n())),
                item.get("approvedBy").s(),
                "-".equals(reason) ? "" : reason,
                // a window stored before windows could hold breakers holds none
                item.containsKey("holdsBreaker") && item.get("holdsBreaker").bool());
    }
}
