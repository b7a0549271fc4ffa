package dev.redrive.aws.ledger;

import dev.redrive.core.replay.PaceSlots;
import dev.redrive.core.replay.ReplayPaceStore;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * Replay paces in the control table ({@code pk = replay-pace#<lane>}, {@code sk = pace}; {@code nextFree} in epoch
 * milliseconds). A booking is one PutItem conditional on the next free slot it was computed from, the one this store
 * saw last (or {@code attribute_not_exists(pk)} for a lane it never saw). When another sweeper or CLI booked first,
 * the refusal returns the item as it is now (ALL_OLD), so the retry costs no read: one call per booking when nobody
 * else books, one more per booking that came between.
 */
public final class DynamoDbReplayPaceStore implements ReplayPaceStore {

    static final String KEY_PREFIX = "replay-pace#";
    static final String SK = "pace";

    /** Bookings that came between, before this one gives up (the lane is then held for this run). */
    static final int ATTEMPTS = 16;

    private final DynamoDbClient dynamoDb;
    private final String table;
    /** The next free slot of each lane as this store last saw it; empty for a lane seen absent. */
    private final Map<String, Optional<Instant>> seen = new ConcurrentHashMap<>();

    public DynamoDbReplayPaceStore(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    static Map<String, AttributeValue> key(String lane) {
        return Map.of("pk", AttributeValue.fromS(KEY_PREFIX + lane), "sk", AttributeValue.fromS(SK));
    }

    @Override
    public PaceSlots book(String lane, int wanted, Duration spacing, Instant now, Instant latest) {
        Optional<Instant> expected = seen.getOrDefault(lane, Optional.empty());
        boolean read = false;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            PaceSlots slots = PaceSlots.book(expected.orElse(null), wanted, spacing, now, latest);
            if (slots.count() == 0 && expected.isPresent()) {
                if (read) {
                    return slots; // booked up to the horizon: nothing to write
                }
                // What this store saw may be stale the other way (another gave slots back): read it once.
                expected = stored(lane);
                read = true;
                continue;
            }
            Instant nextFree = slots.count() == 0 ? now : slots.end();
            Optional<Optional<Instant>> current = write(lane, expected, nextFree);
            if (current.isEmpty()) {
                seen.put(lane, Optional.of(nextFree));
                return slots;
            }
            expected = current.get();
        }
        throw new IllegalStateException("the replay pace of " + lane + " changed under " + ATTEMPTS
                + " bookings in a row; the lane is held for this run");
    }

    @Override
    public void giveBack(String lane, PaceSlots booked, int used) {
        if (used >= booked.count()) {
            return;
        }
        Instant back = booked.at(used);
        Optional<Optional<Instant>> current = write(lane, Optional.of(booked.end()), back);
        if (current.isEmpty()) {
            seen.put(lane, Optional.of(back));
        } else {
            seen.put(lane, current.get()); // someone booked after it: those slots stay empty
        }
    }

    private Optional<Instant> stored(String lane) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(key(lane)).consistentRead(true))
                .item();
        return item == null || !item.containsKey("nextFree")
                ? Optional.empty()
                : Optional.of(
                        Instant.ofEpochMilli(Long.parseLong(item.get("nextFree").n())));
    }

    /**
     * Writes {@code nextFree} if the stored one is still {@code expected} (absent: no item).
     *
     * @return empty when written; else the stored next free slot (empty when there is no item)
     */
    private Optional<Optional<Instant>> write(String lane, Optional<Instant> expected, Instant nextFree) {
        Map<String, AttributeValue> item = new HashMap<>(key(lane));
        item.put("nextFree", AttributeValue.fromN(Long.toString(nextFree.toEpochMilli())));
        try {
            dynamoDb.putItem(b -> {
                b.tableName(table)
                        .item(item)
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
                if (expected.isEmpty()) {
                    b.conditionExpression("attribute_not_exists(pk)");
                } else {
                    b.conditionExpression("nextFree = :expected")
                            .expressionAttributeValues(Map.of(
                                    ":expected",
                                    AttributeValue.fromN(
                                            Long.toString(expected.get().toEpochMilli()))));
                }
            });
            return Optional.empty();
        } catch (ConditionalCheckFailedException anotherBookedFirst) {
            Map<String, AttributeValue> old = anotherBookedFirst.item();
            if (old == null || old.isEmpty() || !old.containsKey("nextFree")) {
                return Optional.of(Optional.empty());
            }
            return Optional.of(Optional.of(
                    Instant.ofEpochMilli(Long.parseLong(old.get("nextFree").n()))));
        }
    }
}
