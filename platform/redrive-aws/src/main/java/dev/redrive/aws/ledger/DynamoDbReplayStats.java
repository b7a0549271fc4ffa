package dev.redrive.aws.ledger;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.sweeper.ReplayStats;
import java.util.EnumMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Replay totals in the control table: {@code pk = stats}, {@code sk = replays#<class>}, atomic ADDs. */
public final class DynamoDbReplayStats implements ReplayStats {

    private static final AttributeValue PK = AttributeValue.fromS("stats");

    private final DynamoDbClient dynamoDb;
    private final String table;

    public DynamoDbReplayStats(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    @Override
    public void add(FailureClass failureClass, long sent, long returned) {
        dynamoDb.updateItem(b -> b.tableName(table)
                .key(Map.of("pk", PK, "sk", AttributeValue.fromS("replays#" + failureClass.name())))
                .updateExpression("ADD sent :sent, returned :returned")
                .expressionAttributeValues(Map.of(
                        ":sent",
                        AttributeValue.fromN(Long.toString(sent)),
                        ":returned",
                        AttributeValue.fromN(Long.toString(returned)))));
    }

    @Override
    public Map<FailureClass, Totals> totals() {
        Map<FailureClass, Totals> totals = new EnumMap<>(FailureClass.class);
        for (var page : dynamoDb.queryPaginator(b -> b.tableName(table)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", PK))
                .consistentRead(true))) {
            for (Map<String, AttributeValue> item : page.items()) {
                String sk = item.get("sk").s();
                if (sk.startsWith("replays#")) {
                    totals.put(
                            FailureClass.valueOf(sk.substring("replays#".length())),
                            new Totals(num(item, "sent"), num(item, "returned")));
                }
            }
        }
        return totals;
    }

    private static long num(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? 0 : Long.parseLong(v.n());
    }
}
