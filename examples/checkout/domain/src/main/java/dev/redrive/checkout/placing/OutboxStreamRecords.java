package dev.redrive.checkout.placing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a DynamoDB stream batch of the orders table, as Lambda delivers it (the JSON of a {@code DynamodbEvent}, read
 * as plain maps: no event classes to reflect on in a native image), into the outbox events it carries. Only INSERTs
 * of outbox items ({@code sk} {@code outbox#...}) are events; every other record (an attempt, a reservation, the mark
 * of an event published) is passed over. An outbox image that cannot be read is {@link Record#unreadable}: the relay
 * fails at it, so the stream's retries and then its on-failure destination hold it, never a silent drop.
 */
public final class OutboxStreamRecords {

    private OutboxStreamRecords() {}

    /**
     * One stream record: its sequence number (the item identifier of a partial batch failure), and the event it
     * carries, if any.
     */
    public record Record(String sequenceNumber, Optional<OutboxEvent> event, String unreadable) {}

    /** The records of {@code batch} in stream order. */
    public static List<Record> read(Map<String, Object> batch) {
        List<Record> records = new ArrayList<>();
        Object list = batch == null ? null : batch.get("Records");
        if (!(list instanceof List<?> items)) {
            return records;
        }
        for (Object o : items) {
            Map<?, ?> record = o instanceof Map<?, ?> m ? m : Map.of();
            Map<?, ?> dynamodb = map(record.get("dynamodb"));
            String sequence = String.valueOf(dynamodb.get("SequenceNumber"));
            Map<?, ?> image = map(dynamodb.get("NewImage"));
            String sk = string(image, "sk");
            if (!"INSERT".equals(record.get("eventName"))
                    || sk == null
                    || !sk.startsWith(DynamoDbCheckoutStore.OUTBOX)) {
                records.add(new Record(sequence, Optional.empty(), null));
                continue;
            }
            try {
                records.add(new Record(
                        sequence,
                        Optional.of(new OutboxEvent(
                                required(image, "orderId"),
                                Long.parseLong(requiredNumber(image, "sequence")),
                                required(image, "eventId"),
                                required(image, "eventType"),
                                required(image, "payload"),
                                Instant.ofEpochMilli(Long.parseLong(requiredNumber(image, "createdAt"))))),
                        null));
            } catch (RuntimeException e) {
                records.add(new Record(
                        sequence, Optional.empty(), "the outbox item " + sk + " cannot be read: " + e.getMessage()));
            }
        }
        return records;
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static String string(Map<?, ?> image, String name) {
        Object v = map(image.get(name)).get("S");
        return v instanceof String s ? s : null;
    }

    private static String required(Map<?, ?> image, String name) {
        String v = string(image, name);
        if (v == null) {
            throw new IllegalArgumentException(name + " is missing or not a string");
        }
        return v;
    }

    private static String requiredNumber(Map<?, ?> image, String name) {
        Object v = map(image.get(name)).get("N");
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException(name + " is missing or not a number");
        }
        return s;
    }
}
