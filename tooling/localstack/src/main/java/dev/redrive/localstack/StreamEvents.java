package dev.redrive.localstack;

import dev.redrive.testing.localaws.LocalAws;
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
            list.add(lambdaRecord(r, streamArn, LocalAws.REGION));
        }
        return Map.of("Records", list);
    }

    /**
     * One record as Lambda hands it to a function: {@code eventID}, {@code eventName}, {@code eventVersion},
     * {@code eventSource}, {@code awsRegion}, {@code dynamodb} (its keys and images in DynamoDB JSON, the sequence
     * number, size and creation time) and {@code eventSourceARN}.
     */
    public static Map<String, Object> lambdaRecord(Record r, String streamArn, String region) {
        Map<String, Object> dynamodb = new LinkedHashMap<>();
        if (r.dynamodb().approximateCreationDateTime() != null) {
            dynamodb.put(
                    "ApproximateCreationDateTime",
                    r.dynamodb().approximateCreationDateTime().getEpochSecond());
        }
        dynamodb.put("Keys", json(r.dynamodb().keys()));
        if (r.dynamodb().hasNewImage()) {
            dynamodb.put("NewImage", json(r.dynamodb().newImage()));
        }
        if (r.dynamodb().hasOldImage()) {
            dynamodb.put("OldImage", json(r.dynamodb().oldImage()));
        }
        dynamodb.put("SequenceNumber", r.dynamodb().sequenceNumber());
        if (r.dynamodb().sizeBytes() != null) {
            dynamodb.put("SizeBytes", r.dynamodb().sizeBytes());
        }
        dynamodb.put("StreamViewType", r.dynamodb().streamViewTypeAsString());
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("eventID", r.eventID());
        record.put("eventName", r.eventNameAsString());
        record.put("eventVersion", r.eventVersion() == null ? "1.1" : r.eventVersion());
        record.put("eventSource", "aws:dynamodb");
        record.put("awsRegion", region);
        record.put("dynamodb", dynamodb);
        record.put("eventSourceARN", streamArn);
        return record;
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
