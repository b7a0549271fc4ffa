package dev.redrive.aws.ledger;

import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The quarantine ledger's conditional writes: each record's write (a Put for an insert, an Update for a save) carries
 * the version it was read at and, under a fence, the fencing token, in its own condition ({@code (<version or absence>)
 * AND (attribute_not_exists(fence) OR fence <= :token)}); a write without a fence keeps the item's {@code fence}.
 * Every write that changes a count carries its ADD on the queue's counts ({@link LedgerCounts}) in the same
 * TransactWriteItems. Batches go ten to a TransactWriteItems. A record whose condition fails cancels its transaction;
 * the cancellation reasons name it and the others are written again without it (after {@value #BATCH_ROUNDS} rounds,
 * or when the reasons cannot be matched, one by one).
 */
final class FencedWrites {

    /** Records per transaction: ten items of at most 400 KB stay inside a transaction's 4 MB. */
    static final int WRITE_BATCH = 10;
    /** How often a batch is tried again after a cancellation before its records are written one by one. */
    private static final int BATCH_ROUNDS = 3;
    /** How often a write cancelled by a conflict is tried before its exception is thrown. */
    private static final int CONFLICT_ATTEMPTS = 8;

    /** The item's highest fencing token: written by fenced writes only, kept by every other. */
    static final String FENCE = "fence";

    /** A tombstone's expiry, epoch seconds, read by the table's TTL; an active record has none. */
    static final String EXPIRES_AT = "expiresAt";

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final java.time.Clock clock;
    private final Optional<java.time.Duration> tombstoneTtl;

    FencedWrites(DynamoDbClient dynamoDb, String table) {
        this(dynamoDb, table, java.time.Clock.systemUTC(), Optional.empty());
    }

    /**
     * Writes that give a tombstone {@code expiresAt} = now + {@code tombstoneTtl} (a writer without one leaves a
     * tombstone's expiry as it is) and take it off a record that is no tombstone.
     */
    FencedWrites(
            DynamoDbClient dynamoDb, String table, java.time.Clock clock, Optional<java.time.Duration> tombstoneTtl) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.clock = clock;
        this.tombstoneTtl = tombstoneTtl;
    }

    private Optional<AttributeValue> expiry(QuarantineRecord record) {
        return record.archivedToStore()
                ? tombstoneTtl.map(
                        ttl -> QuarantineItems.n(clock.instant().plus(ttl).getEpochSecond()))
                : Optional.empty();
    }

    /**
     * One conditional write of a record as it will be stored: a Put for an insert (there is no item yet), an Update for
     * a save (so the item's {@code fence} outlives a write that carries none).
     */
    record Write(QuarantineRecord stored, TransactWriteItem item, LedgerCounts.Change counts) {}

    Write insert(QuarantineRecord record, Optional<LeaseToken> fence) {
        QuarantineRecord stored = record.withVersion(1);
        Map<String, AttributeValue> item = new HashMap<>(QuarantineItems.toItem(stored));
        Condition c = new Condition("attribute_not_exists(pk)", Map.of(), Map.of()).fenced(fence);
        fence.ifPresent(f -> item.put(FENCE, QuarantineItems.n(f.token())));
        expiry(stored).ifPresent(e -> item.put(EXPIRES_AT, e));
        item.put(LedgerCounts.COUNTED, AttributeValue.fromBool(true));
        return new Write(
                stored,
                TransactWriteItem.builder()
                        .put(Put.builder()
                                .tableName(table)
                                .item(item)
                                .conditionExpression(c.expression())
                                .expressionAttributeNames(c.namesOrNull())
                                .expressionAttributeValues(c.valuesOrNull())
                                .build())
                        .build(),
                new LedgerCounts.Change(Optional.empty(), LedgerCounts.Tally.of(stored)));
    }

    /**
     * A save: every attribute of the record set, every other attribute a record can have removed (a tombstone drops
     * its body and moves {@code state} to {@code storedState}), and {@code fence} set to the token when there is one and
     * otherwise left as it is: a person's save must not clear the fence a sweeper left, or a token the record refused
     * would be accepted again. An Update, not a Put: a Put replaces the whole item and cannot keep an attribute it does
     * not know. {@code countedAs} is where the stored item (at the version read) is counted, empty when it was written
     * before counts were kept: the write counts the record where it goes and marks it counted.
     */
    Write update(QuarantineRecord record, Optional<LeaseToken> fence, Optional<LedgerCounts.Tally> countedAs) {
        QuarantineRecord stored = record.withVersion(record.version() + 1);
        Condition c = new Condition(
                        "#version = :expected",
                        Map.of("#version", "version"),
                        Map.of(":expected", QuarantineItems.n(record.version())))
                .fenced(fence);
        Map<String, String> names = new HashMap<>(c.names());
        Map<String, AttributeValue> values = new HashMap<>(c.values());
        Map<String, AttributeValue> item = new HashMap<>(QuarantineItems.toItem(stored));
        QuarantineItems.key(stored.id()).keySet().forEach(item::remove);
        names.put("#counted", LedgerCounts.COUNTED);
        values.put(":counted", AttributeValue.fromBool(true));
        String expression = assignments(item, fence.isPresent(), names, values);
        Optional<AttributeValue> expiry = expiry(stored);
        if (expiry.isPresent()) {
            names.put("#expiresAt", EXPIRES_AT);
            values.put(":expiresAt", expiry.get());
            expression = expression.replaceFirst("^SET ", "SET #expiresAt = :expiresAt, ");
        } else if (!stored.archivedToStore()) {
            names.put("#expiresAt", EXPIRES_AT);
            expression = expression + (expression.contains(" REMOVE ") ? ", " : " REMOVE ") + "#expiresAt";
        }
        return new Write(
                stored,
                TransactWriteItem.builder()
                        .update(Update.builder()
                                .tableName(table)
                                .key(QuarantineItems.key(stored.id()))
                                .updateExpression(expression)
                                .conditionExpression(c.expression())
                                .expressionAttributeNames(names)
                                .expressionAttributeValues(values)
                                .build())
                        .build(),
                new LedgerCounts.Change(countedAs, LedgerCounts.Tally.of(stored)));
    }

    /**
     * The update expression that makes the item {@code item}: SET of its attributes (and of {@code fence} to the
     * condition's {@code :fence} when fenced), REMOVE of every other attribute a record can have; adds the names and
     * values it uses.
     */
    private static String assignments(
            Map<String, AttributeValue> item,
            boolean fenced,
            Map<String, String> names,
            Map<String, AttributeValue> values) {
        Map<String, AttributeValue> left = new HashMap<>(item);
        List<String> set = new ArrayList<>();
        List<String> remove = new ArrayList<>();
        int i = 0;
        for (String attribute : QuarantineItems.ATTRIBUTES) {
            String name = "#a" + i;
            names.put(name, attribute);
            AttributeValue value = left.remove(attribute);
            if (value != null) {
                values.put(":a" + i, value);
                set.add(name + " = :a" + i);
            } else {
                remove.add(name);
            }
            i++;
        }
        if (fenced) {
            set.add("#fence = :fence"); // the condition's name and value
        }
        set.add("#counted = :counted");
        if (!left.isEmpty()) {
            throw new IllegalStateException("QuarantineItems.toItem wrote " + left.keySet() + ", which "
                    + "QuarantineItems.ATTRIBUTES does not list: a save would leave them stale; add them there");
        }
        return "SET " + String.join(", ", set) + (remove.isEmpty() ? "" : " REMOVE " + String.join(", ", remove));
    }

    /** A write's condition with its names and values; under a fence, also refused below the record's fence. */
    private record Condition(String expression, Map<String, String> names, Map<String, AttributeValue> values) {

        Condition fenced(Optional<LeaseToken> fence) {
            if (fence.isEmpty()) {
                return this;
            }
            Map<String, String> n = new HashMap<>(names);
            Map<String, AttributeValue> v = new HashMap<>(values);
            n.put("#fence", FENCE);
            v.put(":fence", QuarantineItems.n(fence.get().token()));
            return new Condition("(" + expression + ") AND (attribute_not_exists(#fence) OR #fence <= :fence)", n, v);
        }

        Map<String, String> namesOrNull() {
            return names.isEmpty() ? null : names;
        }

        Map<String, AttributeValue> valuesOrNull() {
            return values.isEmpty() ? null : values;
        }
    }

    /**
     * Writes {@code w}: alone when it changes no count, else in one transaction with the ADD on its queue's counts;
     * false when its own condition failed. A transaction cancelled by a conflict (another transaction on the same
     * counts at the same moment) is tried again.
     */
    boolean put(Write w) {
        if (w.counts().none()) {
            return putAlone(w);
        }
        List<TransactWriteItem> items = new ArrayList<>();
        items.add(w.item());
        items.addAll(LedgerCounts.updates(table, LedgerCounts.sum(List.of(w.counts()))));
        for (int attempt = 1; ; attempt++) {
            try {
                dynamoDb.transactWriteItems(b -> b.transactItems(items));
                return true;
            } catch (TransactionCanceledException e) {
                List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
                if (!reasons.isEmpty()
                        && "ConditionalCheckFailed".equals(reasons.get(0).code())) {
                    return false;
                }
                if (attempt >= CONFLICT_ATTEMPTS) {
                    throw e;
                }
                backOff(attempt);
            }
        }
    }

    private static void backOff(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L << Math.min(attempt, 6)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a ledger write waited to be tried again", e);
        }
    }

    private boolean putAlone(Write w) {
        try {
            if (w.item().put() != null) {
                Put p = w.item().put();
                dynamoDb.putItem(b -> b.tableName(table)
                        .item(p.item())
                        .conditionExpression(p.conditionExpression())
                        .expressionAttributeNames(p.hasExpressionAttributeNames() ? p.expressionAttributeNames() : null)
                        .expressionAttributeValues(
                                p.hasExpressionAttributeValues() ? p.expressionAttributeValues() : null));
            } else {
                Update u = w.item().update();
                dynamoDb.updateItem(b -> b.tableName(table)
                        .key(u.key())
                        .updateExpression(u.updateExpression())
                        .conditionExpression(u.conditionExpression())
                        .expressionAttributeNames(u.expressionAttributeNames())
                        .expressionAttributeValues(u.expressionAttributeValues()));
            }
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    /** The writes that were accepted, ten to a transaction. */
    List<Write> putAll(List<Write> writes) {
        List<Write> accepted = new ArrayList<>();
        for (int from = 0; from < writes.size(); from += WRITE_BATCH) {
            List<Write> left = writes.subList(from, Math.min(writes.size(), from + WRITE_BATCH));
            for (int round = 0; left.size() > 1 && round < BATCH_ROUNDS; round++) {
                left = transact(left, accepted);
            }
            for (Write w : left) {
                if (put(w)) {
                    accepted.add(w);
                }
            }
        }
        return accepted;
    }

    /**
     * Writes {@code batch} in one transaction; adds what it wrote to {@code accepted} and returns what is still to be
     * written: after a cancellation, every record but those whose own condition failed (they are refused).
     */
    private List<Write> transact(List<Write> batch, List<Write> accepted) {
        List<TransactWriteItem> items = new ArrayList<>();
        List<LedgerCounts.Change> changes = new ArrayList<>();
        for (Write w : batch) {
            items.add(w.item());
            changes.add(w.counts());
        }
        // The records first, then one ADD per queue whose counts they change (at most ten more items: well inside a
        // transaction's hundred).
        items.addAll(LedgerCounts.updates(table, LedgerCounts.sum(changes)));
        try {
            dynamoDb.transactWriteItems(b -> b.transactItems(items));
            accepted.addAll(batch);
            return List.of();
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
            if (reasons.size() != items.size()) {
                return batch; // cannot tell which: the caller writes them one by one
            }
            List<Write> again = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                if (!"ConditionalCheckFailed".equals(reasons.get(i).code())) {
                    again.add(batch.get(i)); // cancelled for another's refusal, or a conflict: tried again
                }
            }
            return again;
        }
    }
}
