package dev.redrive.aws.ledger;

import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The quarantine table's counts: one item per source queue ({@code pk} = {@code counts#<queue>}, {@code sk} =
 * {@value #SK}; it has no {@code state} nor {@code sourceQueue}, so neither index holds it) with a number per state,
 * {@code active_<STATE>} for active records and {@code stored_<STATE>} for tombstones. Every write that adds a record or
 * moves one between those counts carries an {@code ADD} on this item in the same TransactWriteItems as the record's own
 * conditional write: a write that is refused (its version, absence or fence did not hold) changes no count, and no
 * crash can leave the counts and the records apart. A record written that way carries {@value #COUNTED}: a record
 * without it (written before counts were kept) is counted once by {@link DynamoDbQuarantineLedger#establishCounts},
 * which then sets {@value #COMPLETE} on the item.
 */
final class LedgerCounts {

    static final String SK = "counts";
    /** On a record: it is in its queue's counts. */
    static final String COUNTED = "counted";
    /** On a queue's counts: every record of the queue is counted. */
    static final String COMPLETE = "complete";

    private static final String ACTIVE = "active_";
    private static final String STORED = "stored_";

    private LedgerCounts() {}

    static Map<String, AttributeValue> key(String sourceQueue) {
        return Map.of("pk", QuarantineItems.s("counts#" + sourceQueue), "sk", QuarantineItems.s(SK));
    }

    /** Where a record is counted: its queue's item, its state's number (active or tombstone). */
    record Tally(String sourceQueue, String attribute) {

        static Tally of(QuarantineRecord r) {
            return of(r.sourceQueue(), r.state(), r.archivedToStore());
        }

        static Tally of(String sourceQueue, QuarantineState state, boolean tombstone) {
            return new Tally(sourceQueue, (tombstone ? STORED : ACTIVE) + state.name());
        }

        /** Where an item read back (with {@code sourceQueue}, {@code state} or {@code storedState}) is counted. */
        static Tally of(Map<String, AttributeValue> item) {
            boolean tombstone = !item.containsKey("state");
            String state = (tombstone ? item.get("storedState") : item.get("state")).s();
            return of(item.get("sourceQueue").s(), QuarantineState.valueOf(state), tombstone);
        }
    }

    /**
     * What a write does to the counts: {@code to} one more, {@code from} (when the record was counted) one less; a
     * write that stays where it was counted changes nothing.
     */
    record Change(Optional<Tally> from, Tally to) {

        boolean none() {
            return from.isPresent() && from.get().equals(to);
        }
    }

    /** The sum of {@code changes}, by queue and number; numbers that cancel out are left out. */
    static Map<String, Map<String, Long>> sum(List<Change> changes) {
        Map<String, Map<String, Long>> byQueue = new LinkedHashMap<>();
        for (Change c : changes) {
            if (c.none()) {
                continue;
            }
            byQueue.computeIfAbsent(c.to().sourceQueue(), q -> new LinkedHashMap<>())
                    .merge(c.to().attribute(), 1L, Long::sum);
            c.from()
                    .ifPresent(f -> byQueue.computeIfAbsent(f.sourceQueue(), q -> new LinkedHashMap<>())
                            .merge(f.attribute(), -1L, Long::sum));
        }
        byQueue.values().forEach(m -> m.values().removeIf(v -> v == 0));
        byQueue.values().removeIf(Map::isEmpty);
        return byQueue;
    }

    /** One ADD per queue: a transaction may name an item once. */
    static List<TransactWriteItem> updates(String table, Map<String, Map<String, Long>> sums) {
        return sums.entrySet().stream()
                .map(e -> TransactWriteItem.builder()
                        .update(add(table, e.getKey(), e.getValue()))
                        .build())
                .toList();
    }

    static Update add(String table, String sourceQueue, Map<String, Long> deltas) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        StringBuilder expression = new StringBuilder("ADD ");
        int i = 0;
        for (Map.Entry<String, Long> d : deltas.entrySet()) {
            if (i > 0) {
                expression.append(", ");
            }
            names.put("#c" + i, d.getKey());
            values.put(":c" + i, QuarantineItems.n(d.getValue()));
            expression.append("#c").append(i).append(" :c").append(i);
            i++;
        }
        return Update.builder()
                .tableName(table)
                .key(key(sourceQueue))
                .updateExpression(expression.toString())
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .build();
    }

    /** The active counts of a queue's item, by state; a state with none left out. */
    static Map<QuarantineState, Long> active(Map<String, AttributeValue> item) {
        return byState(item, true, false);
    }

    /** Active records and tombstones together, by state; a state with none left out. */
    static Map<QuarantineState, Long> all(Map<String, AttributeValue> item) {
        return byState(item, true, true);
    }

    private static Map<QuarantineState, Long> byState(
            Map<String, AttributeValue> item, boolean active, boolean stored) {
        Map<QuarantineState, Long> counts = new EnumMap<>(QuarantineState.class);
        if (item == null) {
            return counts;
        }
        for (QuarantineState s : QuarantineState.values()) {
            long n = (active ? number(item, ACTIVE + s.name()) : 0) + (stored ? number(item, STORED + s.name()) : 0);
            if (n != 0) {
                counts.put(s, n);
            }
        }
        return counts;
    }

    static long number(Map<String, AttributeValue> item, String attribute) {
        AttributeValue v = item == null ? null : item.get(attribute);
        return v == null || v.n() == null ? 0 : Long.parseLong(v.n());
    }
}
