package dev.redrive.localstack;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The two tables of {@link TransactWriteContract}, their seed items and the transaction items it sends. */
final class TransactFixtures {

    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "s"));

    static final String ORDERS = "orders";
    static final String LEDGER = "ledger";

    static final Map<String, AttributeValue> ORDER_O1 = order("o1", "placed", 12);
    static final Map<String, AttributeValue> LEDGER_A_E1 = entry("acct-a", "e1", "charge", 100);

    /** How many operations {@link #everyKindOfWriteThen} sends before the one it is given. */
    static final int EVERY_KIND_OF_WRITE = 8;

    static final List<Map<String, AttributeValue>> ORDERS_AFTER_EVERY_KIND_OF_WRITE = List.of(
            order("o-new", "placed", 5),
            order("o1", "shipped", 17),
            order("o3", "placed", 3),
            order("o4", "cancelled", 9));

    static final List<Map<String, AttributeValue>> LEDGER_AFTER_EVERY_KIND_OF_WRITE = List.of(
            LEDGER_A_E1,
            entry("acct-a", "e2", "refund", 5),
            entry("acct-a", "e9", "fee", 1),
            entry("acct-new", "e1", "fee", 1),
            Map.of("pk", s("acct-new2"), "sk", s("e1"), "kind", s("fee")));

    private TransactFixtures() {}

    /** A DynamoDB client of a moto of a test's own. */
    static DynamoDbClient dynamoDb(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(CREDENTIALS)
                .build();
    }

    /** A DynamoDB Streams client of a moto of a test's own. */
    static DynamoDbStreamsClient streams(URI endpoint) {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(CREDENTIALS)
                .build();
    }

    /** Both tables as a client sees them. */
    record State(TableState orders, TableState ledger) {
        static State read(DynamoDbClient dynamoDb, DynamoDbStreamsClient streams) {
            return new State(
                    TableState.read(
                            dynamoDb,
                            streams,
                            ORDERS,
                            List.of("pk"),
                            new TableState.IndexQuery("byStatus", "status", List.of("placed", "shipped", "cancelled"))),
                    TableState.read(
                            dynamoDb,
                            streams,
                            LEDGER,
                            List.of("pk", "sk"),
                            new TableState.IndexQuery("byKind", "kind", List.of("charge", "fee", "refund"))));
        }
    }

    static void createAndSeed(DynamoDbClient dynamoDb) {
        dynamoDb.createTable(b -> b.tableName(ORDERS)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("status").attributeType(ScalarAttributeType.S))
                .globalSecondaryIndexes(i -> i.indexName("byStatus")
                        .keySchema(k -> k.attributeName("status").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        dynamoDb.createTable(b -> b.tableName(LEDGER)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("kind").attributeType(ScalarAttributeType.S))
                .globalSecondaryIndexes(i -> i.indexName("byKind")
                        .keySchema(k -> k.attributeName("kind").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY)));
        for (var item :
                List.of(ORDER_O1, order("o2", "placed", 7), order("o3", "placed", 3), order("o4", "cancelled", 9))) {
            dynamoDb.putItem(b -> b.tableName(ORDERS).item(item));
        }
        for (var item : List.of(LEDGER_A_E1, entry("acct-a", "e2", "refund", 5), entry("acct-b", "e1", "charge", 40))) {
            dynamoDb.putItem(b -> b.tableName(LEDGER).item(item));
        }
    }

    /**
     * A put of a new item, an update, a delete and a passing condition check on each table (new items under a new
     * and under an existing hash key, one created by an update), then {@code last}.
     */
    static List<TransactWriteItem> everyKindOfWriteThen(TransactWriteItem last) {
        Orders orders = new Orders();
        Ledger ledger = new Ledger();
        List<TransactWriteItem> items = new ArrayList<>(List.of(
                orders.put("o-new", "placed", 5, "attribute_not_exists(pk)"),
                orders.ship("o1", 5),
                orders.delete("o2"),
                orders.conditionCheck("o3", "attribute_exists(pk)", false),
                ledger.put("acct-a", "e9", "fee"),
                ledger.put("acct-new", "e1", "fee"),
                ledger.updateKind("acct-new2", "e1", "fee"),
                ledger.delete("acct-b", "e1")));
        items.add(last);
        return items;
    }

    /** The transaction items Redrive sends to the orders table, built like its adapters build them. */
    static final class Orders {
        TransactWriteItem put(String pk, String status, int amount, String condition) {
            return TransactWriteItem.builder()
                    .put(p ->
                            p.tableName(ORDERS).item(order(pk, status, amount)).conditionExpression(condition))
                    .build();
        }

        TransactWriteItem ship(String pk, int extra) {
            return TransactWriteItem.builder()
                    .update(u -> u.tableName(ORDERS)
                            .key(Map.of("pk", s(pk)))
                            .updateExpression("SET #s = :shipped ADD amount :extra")
                            .conditionExpression("#s = :placed")
                            .expressionAttributeNames(Map.of("#s", "status"))
                            .expressionAttributeValues(
                                    Map.of(":shipped", s("shipped"), ":placed", s("placed"), ":extra", n(extra))))
                    .build();
        }

        TransactWriteItem updateStatus(String pk, String status) {
            return TransactWriteItem.builder()
                    .update(u -> u.tableName(ORDERS)
                            .key(Map.of("pk", s(pk)))
                            .updateExpression("SET #s = :s")
                            .expressionAttributeNames(Map.of("#s", "status"))
                            .expressionAttributeValues(Map.of(":s", s(status))))
                    .build();
        }

        TransactWriteItem delete(String pk) {
            return TransactWriteItem.builder()
                    .delete(d ->
                            d.tableName(ORDERS).key(Map.of("pk", s(pk))).conditionExpression("attribute_exists(pk)"))
                    .build();
        }

        TransactWriteItem conditionCheck(String pk, String condition, boolean allOld) {
            return TransactWriteItem.builder()
                    .conditionCheck(c -> c.tableName(ORDERS)
                            .key(Map.of("pk", s(pk)))
                            .conditionExpression(condition)
                            .returnValuesOnConditionCheckFailure(TransactWriteContract.allOld(allOld)))
                    .build();
        }

        TransactWriteItem conditionStatusIs(String pk, String status) {
            return TransactWriteItem.builder()
                    .conditionCheck(c -> c.tableName(ORDERS)
                            .key(Map.of("pk", s(pk)))
                            .conditionExpression("#s = :s")
                            .expressionAttributeNames(Map.of("#s", "status"))
                            .expressionAttributeValues(Map.of(":s", s(status))))
                    .build();
        }
    }

    /** The transaction items sent to the ledger table (hash and range key). */
    static final class Ledger {
        TransactWriteItem put(String pk, String sk, String kind) {
            return TransactWriteItem.builder()
                    .put(p -> p.tableName(LEDGER).item(entry(pk, sk, kind, 1)))
                    .build();
        }

        TransactWriteItem updateKind(String pk, String sk, String kind) {
            return TransactWriteItem.builder()
                    .update(u -> u.tableName(LEDGER)
                            .key(Map.of("pk", s(pk), "sk", s(sk)))
                            .updateExpression("SET kind = :k")
                            .expressionAttributeValues(Map.of(":k", s(kind))))
                    .build();
        }

        TransactWriteItem delete(String pk, String sk) {
            return TransactWriteItem.builder()
                    .delete(d -> d.tableName(LEDGER).key(Map.of("pk", s(pk), "sk", s(sk))))
                    .build();
        }

        TransactWriteItem conditionCheck(String pk, String sk, String condition, boolean allOld) {
            return TransactWriteItem.builder()
                    .conditionCheck(c -> c.tableName(LEDGER)
                            .key(Map.of("pk", s(pk), "sk", s(sk)))
                            .conditionExpression(condition)
                            .returnValuesOnConditionCheckFailure(TransactWriteContract.allOld(allOld)))
                    .build();
        }
    }

    static Map<String, AttributeValue> order(String pk, String status, int amount) {
        return Map.of("pk", s(pk), "status", s(status), "amount", n(amount));
    }

    static Map<String, AttributeValue> entry(String pk, String sk, String kind, int minor) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", s(pk));
        item.put("sk", s(sk));
        item.put("kind", s(kind));
        item.put("minor", n(minor));
        return Map.copyOf(item);
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}
