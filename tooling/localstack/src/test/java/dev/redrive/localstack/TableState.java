package dev.redrive.localstack;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Everything a client can observe of one table, read through the API: its items (a consistent scan, in key order),
 * the scan's counts, the item count the table describes, the answer of a query on a secondary index for each of the
 * given values, and its stream's records read from the trim horizon. Two states are equal when no read tells them
 * apart.
 */
record TableState(
        List<Map<String, AttributeValue>> items,
        int scanCount,
        int scannedCount,
        long describedItemCount,
        Map<String, List<Map<String, AttributeValue>>> indexQueries,
        List<String> streamRecords) {

    /** An index query to include: the index, its hash key attribute and the values to query it with. */
    record IndexQuery(String index, String hashKey, List<String> values) {}

    static TableState read(
            DynamoDbClient dynamoDb, DynamoDbStreamsClient streams, String table, List<String> keys, IndexQuery query) {
        ScanResponse scan = dynamoDb.scan(b -> b.tableName(table).consistentRead(true));
        List<Map<String, AttributeValue>> items = new ArrayList<>(scan.items());
        items.sort(Comparator.comparing(item -> keyOf(item, keys)));
        Map<String, List<Map<String, AttributeValue>>> indexQueries = new TreeMap<>();
        for (String value : query.values()) {
            QueryResponse answer = dynamoDb.query(b -> b.tableName(table)
                    .indexName(query.index())
                    .keyConditionExpression("#k = :v")
                    .expressionAttributeNames(Map.of("#k", query.hashKey()))
                    .expressionAttributeValues(Map.of(":v", AttributeValue.fromS(value))));
            List<Map<String, AttributeValue>> found = new ArrayList<>(answer.items());
            found.sort(Comparator.comparing(item -> keyOf(item, keys)));
            indexQueries.put(value, found);
        }
        long itemCount = dynamoDb.describeTable(b -> b.tableName(table)).table().itemCount();
        return new TableState(
                items,
                scan.count(),
                scan.scannedCount(),
                itemCount,
                indexQueries,
                streamRecords(dynamoDb, streams, table));
    }

    /** The table's stream records from the trim horizon, each as event name, sequence number, keys and images. */
    static List<String> streamRecords(DynamoDbClient dynamoDb, DynamoDbStreamsClient streams, String table) {
        String arn = dynamoDb.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        if (arn == null) {
            return List.of();
        }
        List<String> records = new ArrayList<>();
        for (var shard : streams.describeStream(b -> b.streamArn(arn))
                .streamDescription()
                .shards()) {
            String iterator = streams.getShardIterator(b ->
                            b.streamArn(arn).shardId(shard.shardId()).shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                    .shardIterator();
            records.addAll(drain(streams, iterator).records());
        }
        return records;
    }

    /** What one reader got from a shard iterator, and the iterator to continue with. */
    record Page(List<String> records, String next) {}

    /** Reads from this iterator until a page comes back empty (the local stream has nothing more for now). */
    static Page drain(DynamoDbStreamsClient streams, String iterator) {
        List<String> records = new ArrayList<>();
        String next = iterator;
        while (true) {
            String current = next;
            var page = streams.getRecords(b -> b.shardIterator(current));
            next = page.nextShardIterator();
            if (page.records().isEmpty()) {
                return new Page(records, next);
            }
            for (var r : page.records()) {
                Map<String, Object> view = new LinkedHashMap<>();
                view.put("event", r.eventNameAsString());
                view.put("sequence", r.dynamodb().sequenceNumber());
                view.put("keys", new TreeMap<>(r.dynamodb().keys()));
                view.put("new", new TreeMap<>(r.dynamodb().newImage()));
                view.put("old", new TreeMap<>(r.dynamodb().oldImage()));
                records.add(view.toString());
            }
        }
    }

    private static String keyOf(Map<String, AttributeValue> item, List<String> keys) {
        StringBuilder key = new StringBuilder();
        for (String k : keys) {
            AttributeValue v = item.get(k);
            key.append(v == null ? "" : v.s()).append('\u0000');
        }
        return key.toString();
    }
}
