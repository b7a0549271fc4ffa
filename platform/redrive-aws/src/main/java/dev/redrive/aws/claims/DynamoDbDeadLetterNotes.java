package dev.redrive.aws.claims;

import dev.redrive.aws.dynamo.BatchReads;
import dev.redrive.core.sweeper.ArrivedDeadLetter.AttachedFailure;
import dev.redrive.core.sweeper.DeadLetterNotes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Dead-letter notes in the claims table, one item each: {@code pk} = {@value #PREFIX}{@code <dead-letter queue>:<
 * fingerprint>}, the consumer, the claim key (when the message had one), the source message id, the failure (the same
 * attributes a claim's failure has) and {@code expiresAt}, the table's TTL attribute. A note's key holds no {@code #}
 * (a queue name cannot) and every claim key does, so the two never meet. Why this table: the consumers already write it
 * and the sweeper already reads it (no new grant), it is encrypted and retained like the claims, and its TTL is derived
 * to outlive every way a message can come back, so a note outlives its dead letter's stay in the DLQ.
 */
public final class DynamoDbDeadLetterNotes implements DeadLetterNotes {

    static final String PREFIX = "dead-letter-note:";
    private static final String CONSUMER = "consumer";
    private static final String KEY = "idempotencyKey";
    private static final String SOURCE_MESSAGE_ID = "sourceMessageId";

    private final DynamoDbClient dynamoDb;
    private final String table;

    public DynamoDbDeadLetterNotes(DynamoDbClient dynamoDb, String claimsTable) {
        this.dynamoDb = dynamoDb;
        this.table = claimsTable;
    }

    static Map<String, AttributeValue> key(NoteKey key) {
        return Map.of(ClaimItems.PK, AttributeValue.fromS(PREFIX + key.deadLetterQueue() + ":" + key.fingerprint()));
    }

    @Override
    public void keep(NoteKey key, AttachedFailure failure, Instant expiresAt) {
        Map<String, AttributeValue> item = new HashMap<>(key(key));
        item.putAll(ClaimItems.failureAttributes(failure.failure()));
        item.put(CONSUMER, AttributeValue.fromS(failure.consumer()));
        if (failure.idempotencyKey() != null) {
            item.put(KEY, AttributeValue.fromS(failure.idempotencyKey()));
        }
        if (failure.sourceMessageId() != null) {
            item.put(SOURCE_MESSAGE_ID, AttributeValue.fromS(failure.sourceMessageId()));
        }
        item.put(ClaimItems.EXPIRES_AT, AttributeValue.fromN(Long.toString(expiresAt.getEpochSecond())));
        dynamoDb.putItem(b -> b.tableName(table).item(item));
    }

    @Override
    public Optional<AttachedFailure> find(NoteKey key, Instant now) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(key(key)).consistentRead(true))
                .item();
        return note(item, now);
    }

    /** One BatchGetItem per hundred keys ({@link BatchReads}). */
    @Override
    public Map<NoteKey, AttachedFailure> findAll(Collection<NoteKey> keys, Instant now) {
        List<Map<String, AttributeValue>> asked = new ArrayList<>();
        keys.forEach(k -> asked.add(key(k)));
        Map<String, AttachedFailure> byPk = new HashMap<>();
        for (Map<String, AttributeValue> item : BatchReads.byKey(dynamoDb, table, asked)) {
            note(item, now).ifPresent(n -> byPk.put(item.get(ClaimItems.PK).s(), n));
        }
        Map<NoteKey, AttachedFailure> found = new LinkedHashMap<>();
        for (NoteKey k : keys) {
            AttachedFailure f = byPk.get(key(k).get(ClaimItems.PK).s());
            if (f != null) {
                found.put(k, f);
            }
        }
        return found;
    }

    /** The note an item holds, unless it has expired (TTL deletes expired items late, if at all: filter on read). */
    private static Optional<AttachedFailure> note(Map<String, AttributeValue> item, Instant now) {
        if (item == null || item.isEmpty() || !item.containsKey(CONSUMER)) {
            return Optional.empty();
        }
        AttributeValue expiresAt = item.get(ClaimItems.EXPIRES_AT);
        if (expiresAt == null
                || !Instant.ofEpochSecond(Long.parseLong(expiresAt.n())).isAfter(now)) {
            return Optional.empty();
        }
        return Optional.of(new AttachedFailure(
                item.get(CONSUMER).s(), text(item, KEY), text(item, SOURCE_MESSAGE_ID), ClaimItems.failureOf(item)));
    }

    private static String text(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }
}
