package dev.redrive.aws.ledger;

import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/** Maintenance windows in the control table: {@code pk = window}, {@code sk = <id>}. */
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
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", PK);
        item.put("sk", AttributeValue.fromS(w.id()));
        item.put("dependency", AttributeValue.fromS(w.dependency()));
        item.put("start", AttributeValue.fromN(Long.toString(w.start().toEpochMilli())));
        item.put("end", AttributeValue.fromN(Long.toString(w.end().toEpochMilli())));
        item.put("approvedBy", AttributeValue.fromS(w.approvedBy()));
        item.put("reason", AttributeValue.fromS(w.reason().isEmpty() ? "-" : w.reason()));
        item.put("holdsBreaker", AttributeValue.fromBool(w.holdsBreaker()));
        dynamoDb.putItem(b -> b.tableName(table).item(item));
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
