package dev.redrive.localstack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A table's DynamoDB stream as a Lambda event source mapping delivers it: the records read from every shard (from
 * the start), rendered as the JSON maps of a {@code DynamodbEvent} ({@code Records[].eventName},
 * {@code dynamodb.Keys/NewImage/SequenceNumber} in DynamoDB JSON, {@code eventSourceARN}).
 */
public final class StreamEvents {

    private StreamEvents() {}

    /** Every record of {@code table}'s stream so far, oldest first per shard. */
    public static List<Record> readAll(LocalAws aws, String table) {
        String streamArn =
                aws.dynamoDb().describeTable(b -> b.tableName(table)).table().latestStreamArn();
        List<Record> records = new ArrayList<>();
        try (DynamoDbStreamsClient streams = aws.dynamoDbStreams()) {
            var shards = streams.describeStream(b -> b.streamArn(streamArn))
                    .streamDescription()
                    .shards();
            for (var shard : shards) {
                String iterator = streams.getShardIterator(b -> b.streamArn(streamArn)
                                .shardId(shard.shardId())
                                .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                        .shardIterator();
                while (iterator != null) {
                    String at = iterator;
                    var page = streams.getRecords(b -> b.shardIterator(at));
                    records.addAll(page.records());
                    if (page.records().isEmpty()) {
                        break;
                    }
                    iterator = page.nextShardIterator();
                }
            }
        }
        return records;
    }

    /** {@code records} as the event Lambda gives a function on {@code streamArn}. */
    public static Map<String, Object> lambdaEvent(List<Record> records, String streamArn) {
        List<Object> list = new ArrayList<>();
        for (Record r : records) {
            Map<String, Object> dynamodb = new LinkedHashMap<>();
            dynamodb.put("Keys", json(r.dynamodb().keys()));
            if (r.dynamodb().hasNewImage()) {
                dynamodb.put("NewImage", json(r.dynamodb().newImage()));
            }
            dynamodb.put("SequenceNumber", r.dynamodb().sequenceNumber());
            dynamodb.put("StreamViewType", r.dynamodb().streamViewTypeAsString());
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("eventID", r.eventID());
            record.put("eventName", r.eventNameAsString());
            record.put("eventSource", "aws:dynamodb");
            record.put("dynamodb", dynamodb);
            record.put("eventSourceARN", streamArn);
            list.add(record);
        }
        return Map.of("Records", list);
    }

    private static Map<String, Object> json(Map<String, AttributeValue> item) {
        Map<String, Object> out = new LinkedHashMap<>();
        item.forEach((k, v) -> out.put(k, json(v)));
        return out;
    }

    private static Map<String, Object> json(AttributeValue v) {
        if (v.s() != null) {
            return Map.of("S", v.s());
        }
        if (v.n() != null) {
            return Map.of("N", v.n());
        }
        if (v.bool() != null) {
            return Map.of("BOOL", v.bool());
        }
        if (v.hasM()) {
            return Map.of("M", json(v.m()));
        }
        if (v.hasL()) {
            return Map.of("L", v.l().stream().map(StreamEvents::json).toList());
        }
        if (v.hasSs()) {
            return Map.of("SS", v.ss());
        }
        if (v.hasNs()) {
            return Map.of("NS", v.ns());
        }
        if (v.b() != null) {
            return Map.of("B", base64(v.b()));
        }
        return Map.of("NULL", true);
    }

    private static String base64(SdkBytes b) {
        return java.util.Base64.getEncoder().encodeToString(b.asByteArray());
    }
}
