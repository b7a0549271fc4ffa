package dev.redrive.aws.dynamo;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/** Strongly consistent reads of many items of one table by key, in as few calls as DynamoDB allows. */
public final class BatchReads {

    /** Keys per BatchGetItem (DynamoDB's limit). */
    public static final int READ_BATCH = 100;
    /** How often unprocessed keys are asked for again before they are read one by one. */
    private static final int BATCH_ROUNDS = 3;

    private BatchReads() {}

    /**
     * The items of {@code table} under {@code keys} that exist, in no particular order: one BatchGetItem per hundred
     * distinct keys; keys DynamoDB leaves unprocessed are asked again, then read one by one with GetItem.
     */
    public static List<Map<String, AttributeValue>> byKey(
            DynamoDbClient dynamoDb, String table, List<Map<String, AttributeValue>> keys) {
        return byKey(dynamoDb, table, keys, null, null);
    }

    /**
     * {@link #byKey(DynamoDbClient, String, List)} reading back only {@code projection} (with its attribute
     * {@code names}); both null read whole items. The projection must keep the key for the caller to match items.
     */
    public static List<Map<String, AttributeValue>> byKey(
            DynamoDbClient dynamoDb,
            String table,
            List<Map<String, AttributeValue>> keys,
            String projection,
            Map<String, String> names) {
        List<Map<String, AttributeValue>> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += READ_BATCH) {
            List<Map<String, AttributeValue>> chunk =
                    distinct.subList(from, Math.min(distinct.size(), from + READ_BATCH));
            Map<String, KeysAndAttributes> request = Map.of(
                    table,
                    KeysAndAttributes.builder()
                            .keys(chunk)
                            .consistentRead(true)
                            .projectionExpression(projection)
                            .expressionAttributeNames(names)
                            .build());
            for (int round = 0; !request.isEmpty() && round < BATCH_ROUNDS; round++) {
                Map<String, KeysAndAttributes> asked = request;
                BatchGetItemResponse response = dynamoDb.batchGetItem(b -> b.requestItems(asked));
                items.addAll(response.responses().getOrDefault(table, List.of()));
                request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
            }
            for (Map<String, AttributeValue> left : request.isEmpty()
                    ? List.<Map<String, AttributeValue>>of()
                    : request.get(table).keys()) {
                Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table)
                                .key(left)
                                .consistentRead(true)
                                .projectionExpression(projection)
                                .expressionAttributeNames(names))
                        .item();
                if (item != null && !item.isEmpty()) {
                    items.add(item);
                }
            }
        }
        return items;
    }
}
