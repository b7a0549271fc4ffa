package dev.redrive.functions.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.IncomingMessage;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The baseline of {@link CompareBenchmark}: what Powertools for AWS Lambda (Java) v2 does per SQS record with its
 * idempotency utility ({@code DynamoDBPersistenceStore}, {@code BasePersistenceStore}, {@code IdempotencyHandler})
 * under its batch utility ({@code SqsBatchMessageHandler.processBatch}), re-implemented from their published source,
 * with their defaults: table keyed by {@code id}; {@code expiration} in epoch seconds (one hour after the write);
 * {@code in_progress_expiration} in epoch milliseconds (the invocation's end); no payload validation, no local cache;
 * the key is {@code <function>#<MD5 of the selected key>}.
 *
 * <p>Per record: a PutItem of an INPROGRESS record under {@link #CONDITION}, ALL_OLD on failure; when refused, the
 * returned item decides (a GetItem only if none came back): COMPLETED returns the stored response, a live INPROGRESS
 * fails the record, an expired one retries (at most twice more). Then the handler; on its exception an unconditional
 * DeleteItem of the record, else an unconditional UpdateItem to COMPLETED with the response. The batch runs its records
 * one after another ({@link #processBatch}, their default; on a FIFO batch the first failure fails the rest
 * unprocessed) or concurrently ({@link #processBatchInParallel}, opt-in, refuses FIFO), as {@link PowertoolsStyleBatch}
 * describes.
 *
 * <p>Records of one batch running concurrently share this one store, as they share Powertools' one {@code
 * Idempotency} instance (its persistence store and registered Lambda context): each record's only lock is its
 * INPROGRESS item, so two records with the same key in one parallel batch do not wait for each other: the second
 * finds the first INPROGRESS and fails (IdempotencyAlreadyInProgressException, retried by SQS), where one after another
 * it would find it COMPLETED and succeed as a duplicate. (Powertools' optional local cache, a LinkedHashMap, is not
 * thread-safe either; it is off by default and not modelled here.)
 */
final class PowertoolsStyleConsumer {

    static final String LABEL =
            "Powertools-style (re-implementation of its published algorithm; the library itself is not served here)";

    static final String ID = "id";
    static final String EXPIRATION = "expiration";
    static final String IN_PROGRESS_EXPIRATION = "in_progress_expiration";
    static final String STATUS = "status";
    static final String DATA = "data";
    static final String INPROGRESS = "INPROGRESS";
    static final String COMPLETED = "COMPLETED";

    /** DynamoDBPersistenceStore.putRecord's condition, as published. */
    static final String CONDITION =
            "attribute_not_exists(#id) OR #expiry < :now OR (attribute_exists(#in_progress_expiry)"
                    + " AND #in_progress_expiry < :now_milliseconds AND #status = :inprogress)";

    /** IdempotencyHandler retries an inconsistent state (expired between the put and the read) twice. */
    private static final int MAX_RETRIES = 2;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The user's record handler; its return value is the stored response. */
    interface RecordHandler {
        String handle(String key) throws Exception;
    }

    enum Outcome {
        /** The handler ran and its response was stored. */
        APPLIED,
        /** A COMPLETED record was found: its stored response was returned, the handler did not run. */
        DUPLICATE,
        /** A live INPROGRESS record was found: IdempotencyAlreadyInProgressException, a batch item failure. */
        IN_PROGRESS,
        /** The handler threw: the record was deleted, a batch item failure. */
        FAILED,
        /** On a FIFO batch, after an earlier failure: reported failed without being processed. */
        NOT_PROCESSED
    }

    record BatchResult(List<String> failedMessageIds, Map<Outcome, Integer> outcomes) {}

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final String functionName;
    private final Duration expiresAfter;
    private final Clock clock;

    PowertoolsStyleConsumer(
            DynamoDbClient dynamoDb, String table, String functionName, Duration expiresAfter, Clock clock) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.functionName = functionName;
        this.expiresAfter = expiresAfter;
        this.clock = clock;
    }

    /** Their documented table: partition key {@code id} (S), TTL on {@code expiration}. */
    static void createTable(DynamoDbClient ddb, String name) {
        ddb.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName(ID).keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName(ID).attributeType(ScalarAttributeType.S)));
        ddb.updateTimeToLive(b -> b.tableName(name)
                .timeToLiveSpecification(t -> t.attributeName(EXPIRATION).enabled(true)));
    }

    /** SqsBatchMessageHandler.processBatch: one record after another; on FIFO, the first failure ends the batch. */
    BatchResult processBatch(List<IncomingMessage> batch, RecordHandler handler, Supplier<Duration> remaining) {
        return PowertoolsStyleBatch.sequential(batch, m -> processRecord(m, handler, remaining));
    }

    /** SqsBatchMessageHandler.processBatchInParallel(event, context): a parallel stream on the common pool. */
    BatchResult processBatchInParallel(
            List<IncomingMessage> batch, RecordHandler handler, Supplier<Duration> remaining) {
        return PowertoolsStyleBatch.parallel(batch, m -> processRecord(m, handler, remaining));
    }

    /** SqsBatchMessageHandler.processBatchInParallel(event, context, executor): a future per record. */
    BatchResult processBatchInParallel(
            List<IncomingMessage> batch, RecordHandler handler, Supplier<Duration> remaining, Executor executor) {
        return PowertoolsStyleBatch.parallel(batch, m -> processRecord(m, handler, remaining), executor);
    }

    /** IdempotencyHandler.handle: processIdempotency, retried on an inconsistent state. */
    Outcome processRecord(IncomingMessage message, RecordHandler handler, Supplier<Duration> remaining) {
        String selected = selectedKeyOf(message);
        String key = hashedKey(selected);
        for (int attempt = 0; ; attempt++) {
            try {
                return processIdempotency(key, selected, handler, remaining);
            } catch (InconsistentState e) {
                if (attempt == MAX_RETRIES) {
                    return Outcome.FAILED;
                }
            }
        }
    }

    private Outcome processIdempotency(
            String key, String selected, RecordHandler handler, Supplier<Duration> remaining) {
        Map<String, AttributeValue> existing = saveInProgress(key, clock.instant(), remaining.get());
        if (existing != null) {
            return handleForStatus(existing.isEmpty() ? getRecord(key) : existing);
        }
        String response;
        try {
            response = handler.handle(selected);
        } catch (Exception e) {
            dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of(ID, s(key))));
            return Outcome.FAILED;
        }
        saveSuccess(key, response, clock.instant());
        return Outcome.APPLIED;
    }

    /** putRecord of an INPROGRESS record: null when written, else the stored item (empty when none came back). */
    private Map<String, AttributeValue> saveInProgress(String key, Instant now, Duration remaining) {
        Map<String, AttributeValue> item = Map.of(
                ID, s(key),
                EXPIRATION, n(now.plus(expiresAfter).getEpochSecond()),
                STATUS, s(INPROGRESS),
                IN_PROGRESS_EXPIRATION, n(now.plus(remaining).toEpochMilli()));
        try {
            dynamoDb.putItem(b -> b.tableName(table)
                    .item(item)
                    .conditionExpression(CONDITION)
                    .expressionAttributeNames(Map.of(
                            "#id", ID,
                            "#expiry", EXPIRATION,
                            "#in_progress_expiry", IN_PROGRESS_EXPIRATION,
                            "#status", STATUS))
                    .expressionAttributeValues(Map.of(
                            ":now", n(now.getEpochSecond()),
                            ":now_milliseconds", n(now.toEpochMilli()),
                            ":inprogress", s(INPROGRESS)))
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return null;
        } catch (ConditionalCheckFailedException e) {
            return e.hasItem() ? e.item() : Map.of();
        }
    }

    /** getRecord: a consistent GetItem, only when the refused put returned no item. */
    private Map<String, AttributeValue> getRecord(String key) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(Map.of(ID, s(key))).consistentRead(true))
                .item();
        if (item == null || item.isEmpty()) {
            throw new InconsistentState(); // deleted between the put and the read
        }
        return item;
    }

    private Outcome handleForStatus(Map<String, AttributeValue> record) {
        Instant now = clock.instant();
        if (now.isAfter(
                Instant.ofEpochSecond(Long.parseLong(record.get(EXPIRATION).n())))) {
            throw new InconsistentState(); // EXPIRED
        }
        if (INPROGRESS.equals(record.get(STATUS).s())) {
            AttributeValue inProgressExpiry = record.get(IN_PROGRESS_EXPIRATION);
            if (inProgressExpiry != null && Long.parseLong(inProgressExpiry.n()) < now.toEpochMilli()) {
                throw new InconsistentState(); // timed out: the next put takes it over
            }
            return Outcome.IN_PROGRESS;
        }
        return Outcome.DUPLICATE; // the stored response (record.get(DATA)) is returned; the handler does not run
    }

    /** updateRecord: unconditional. */
    private void saveSuccess(String key, String response, Instant now) {
        dynamoDb.updateItem(b -> b.tableName(table)
                .key(Map.of(ID, s(key)))
                .updateExpression("SET #response_data = :response_data, #expiry = :expiry, #status = :status")
                .expressionAttributeNames(Map.of("#response_data", DATA, "#expiry", EXPIRATION, "#status", STATUS))
                .expressionAttributeValues(Map.of(
                        ":response_data", s(response),
                        ":expiry", n(now.plus(expiresAfter).getEpochSecond()),
                        ":status", s(COMPLETED))));
    }

    /** The idempotency key: the function's name and the MD5 of the selected data (the body's {@code key}). */
    String keyOf(IncomingMessage message) {
        return hashedKey(selectedKeyOf(message));
    }

    private String hashedKey(String selected) {
        return functionName + "#" + md5(selected);
    }

    private static String selectedKeyOf(IncomingMessage message) {
        try {
            return JSON.readTree(message.body()).get("key").asText();
        } catch (IOException e) {
            throw new IllegalArgumentException("benchmark bodies are JSON with a key", e);
        }
    }

    private static String md5(String data) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(data.getBytes(StandardCharsets.UTF_8));
            return String.format("%032x", new BigInteger(1, digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static AttributeValue s(String value) {
        return AttributeValue.builder().s(value).build();
    }

    private static AttributeValue n(long value) {
        return AttributeValue.builder().n(Long.toString(value)).build();
    }

    /** IdempotencyInconsistentStateException: the record changed between the put and its reading. */
    private static final class InconsistentState extends RuntimeException {
        InconsistentState() {
            super(null, null, false, false);
        }
    }
}
