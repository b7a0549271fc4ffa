package dev.redrive.aws.claims;

import static dev.redrive.aws.claims.ClaimItems.BUILD_VERSION;
import static dev.redrive.aws.claims.ClaimItems.EXPIRES_AT;
import static dev.redrive.aws.claims.ClaimItems.FAILURE_COUNT;
import static dev.redrive.aws.claims.ClaimItems.FENCING_TOKEN;
import static dev.redrive.aws.claims.ClaimItems.LEASE_EXPIRES_AT;
import static dev.redrive.aws.claims.ClaimItems.PK;
import static dev.redrive.aws.claims.ClaimItems.RESULT;
import static dev.redrive.aws.claims.ClaimItems.STATUS;
import static dev.redrive.aws.claims.ClaimItems.VERSION;
import static dev.redrive.aws.claims.ClaimItems.n;
import static dev.redrive.aws.claims.ClaimItems.s;

import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.ClaimRules;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.EffectConflict;
import dev.redrive.core.claim.FencedWrite;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.TransactionalClaimStore;
import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The claim store on DynamoDB.
 *
 * <p>A claim is one conditional PutItem, {@code attribute_not_exists(pk)}, with
 * {@code ReturnValuesOnConditionCheckFailure=ALL_OLD}: a new key costs one write; a duplicate costs one failed write
 * and no read, because the failure carries the stored item, which {@link ClaimRules#decide} then reads. Only a
 * takeover (failed attempt, expired lease, expired record) needs a second write: a compare-and-set PutItem on the
 * record's {@code version}, carrying the token + 1 and the failure history.
 *
 * <p>Completing and releasing are UpdateItems conditional on {@code status = IN_PROGRESS AND fencingToken = :token}.
 *
 * <p>A transactional effect commits in one TransactWriteItems with its claim (index 0). The first attempt assumes a
 * new key; when the key exists, the claim's cancellation reason (read before any effect's) returns the stored claim,
 * which decides as {@link #claim} would: a duplicate is acknowledged, a take-over builds the effect's writes again with
 * its real token. Records written before claims carried a {@code version} compare-and-set on their token instead.
 */
public final class DynamoDbClaimStore implements TransactionalClaimStore<TransactWriteItem> {

    /** A compare-and-set may lose to a concurrent writer; each loss re-reads from the failure and decides again. */
    private static final int MAX_CAS_ROUNDS = 8;

    private static final String NEW_KEY = "attribute_not_exists(" + PK + ")";
    private static final String SAME_VERSION = "#version = :expectedVersion";
    /** A record written before claims carried a version reads as version 0: it matches only while still without. */
    private static final String NO_VERSION_YET = "attribute_not_exists(#version) AND #token = :expectedToken";

    private static final String HELD_BY_TOKEN = "#status = :inProgress AND #token = :token";

    private final DynamoDbClient dynamoDb;
    private final String table;

    public DynamoDbClaimStore(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    public String table() {
        return table;
    }

    @Override
    public ClaimOutcome claim(ClaimRequest request, Instant now) {
        ClaimRecord fresh = ClaimRules.claimedRecord(null, request, now);
        Map<String, AttributeValue> existing = putIfAbsent(fresh);
        if (existing == null) {
            return new ClaimOutcome.Acquired(fresh, false);
        }
        for (int round = 0; round < MAX_CAS_ROUNDS; round++) {
            if (existing.isEmpty()) { // deleted between the failed write and now (TTL): claim it as new
                existing = putIfAbsent(fresh);
                if (existing == null) {
                    return new ClaimOutcome.Acquired(fresh, false);
                }
                continue;
            }
            ClaimRecord stored = ClaimItems.fromItem(existing);
            ClaimRules.Decision decision = ClaimRules.decide(stored, request, now);
            if (decision != ClaimRules.Decision.TAKE_OVER && decision != ClaimRules.Decision.CLAIM_NEW) {
                return ClaimRules.rejection(decision, stored, request);
            }
            ClaimRecord successor = ClaimRules.claimedRecord(stored, request, now);
            existing = compareAndSet(successor, stored);
            if (existing == null) {
                return new ClaimOutcome.Acquired(successor, true);
            }
        }
        if (existing.isEmpty()) {
            throw new IllegalStateException("claim of " + request.key() + " kept racing a deletion");
        }
        // Lost every round to other writers: somebody else is clearly working on it.
        return new ClaimOutcome.HeldByAnother(ClaimItems.fromItem(existing));
    }

    @Override
    public FencedWrite complete(IdempotencyKey key, long fencingToken, String result, Instant expiresAt, Instant now) {
        Map<String, AttributeValue> values = new HashMap<>(heldByValues(fencingToken));
        Map<String, String> names = new HashMap<>(heldByNames());
        StringBuilder set = new StringBuilder("SET #status = :completed");
        values.put(":completed", s(ClaimStatus.COMPLETED.name()));
        if (result != null && !result.isEmpty()) {
            set.append(", #result = :result");
            values.put(":result", s(result));
            names.put("#result", RESULT);
        }
        if (expiresAt != null) {
            // The TTL attribute then counts from the completion, not from the claim.
            set.append(", #expiresAt = :expiresAt");
            values.put(":expiresAt", n(expiresAt.getEpochSecond()));
            names.put("#expiresAt", EXPIRES_AT);
        }
        values.put(":one", n(1));
        names.put("#version", VERSION);
        return conditionalUpdate(key, set + " ADD #version :one", names, values);
    }

    @Override
    public FencedWrite release(IdempotencyKey key, long fencingToken, FailureRecord failure, Instant now) {
        Map<String, AttributeValue> values = new HashMap<>(heldByValues(fencingToken));
        Map<String, String> names = new HashMap<>(heldByNames());
        StringBuilder set = new StringBuilder("SET #status = :failed, #lease = :now");
        values.put(":failed", s(ClaimStatus.FAILED.name()));
        values.put(":now", n(now.toEpochMilli()));
        names.put("#lease", LEASE_EXPIRES_AT);
        int i = 0;
        for (Map.Entry<String, AttributeValue> f :
                ClaimItems.failureAttributes(failure).entrySet()) {
            names.put("#f" + i, f.getKey());
            values.put(":f" + i, f.getValue());
            set.append(", #f").append(i).append(" = :f").append(i);
            i++;
        }
        String remove = "";
        if (failure.buildVersion().isEmpty()) {
            // A consumer that records no version: the claim must not keep an earlier failure's.
            names.put("#buildVersion", BUILD_VERSION);
            remove = " REMOVE #buildVersion";
        }
        names.put("#version", VERSION);
        names.put("#failures", FAILURE_COUNT);
        values.put(":one", n(1));
        return conditionalUpdate(key, set + remove + " ADD #version :one, #failures :one", names, values);
    }

    @Override
    public Optional<ClaimRecord> find(IdempotencyKey key, Instant now) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(ClaimItems.key(key)).consistentRead(true))
                .item();
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        ClaimRecord record = ClaimItems.fromItem(item);
        return record.isExpired(now) ? Optional.empty() : Optional.of(record);
    }

    @Override
    public ClaimOutcome claimAndCommit(
            ClaimRequest request, LongFunction<List<TransactWriteItem>> effectWrites, String result, Instant now) {
        ClaimRecord stored = null;
        boolean known = false; // whether stored was read (or returned by a cancellation) rather than guessed absent
        for (int round = 0; round < MAX_CAS_ROUNDS; round++) {
            if (stored != null) {
                ClaimRules.Decision decision = ClaimRules.decide(stored, request, now);
                if (decision != ClaimRules.Decision.TAKE_OVER && decision != ClaimRules.Decision.CLAIM_NEW) {
                    return ClaimRules.rejection(decision, stored, request);
                }
            }
            ClaimRecord claimed = ClaimRules.claimedRecord(stored, request, now);
            ClaimRecord completed = claimed.completed(result);
            List<TransactWriteItem> items = new ArrayList<>();
            items.add(
                    TransactWriteItem.builder().put(claimPut(completed, stored)).build());
            List<TransactWriteItem> effect;
            try {
                effect = effectWrites.apply(completed.fencingToken());
            } catch (RuntimeException refused) {
                if (known) {
                    throw refused;
                }
                // Built for a key guessed new: the stored claim decides first (a duplicate stays a duplicate).
                stored = storedClaim(request.key());
                known = true;
                if (stored == null) {
                    throw refused;
                }
                continue;
            }
            items.addAll(effect);
            try {
                dynamoDb.transactWriteItems(b -> b.transactItems(items));
                return new ClaimOutcome.Acquired(completed, stored != null);
            } catch (TransactionCanceledException e) {
                stored = interpretCancellation(e);
                known = true;
            }
        }
        throw new EffectConflict(
                EffectConflict.Kind.CONFLICT,
                "the claim kept changing under " + MAX_CAS_ROUNDS + " transaction attempts",
                "dynamodb");
    }

    @Override
    public FencedWrite recordFailure(ClaimRequest request, FailureRecord failure, Instant now) {
        ClaimRecord fresh = failedRecord(ClaimRules.claimedRecord(null, request, now), failure, now);
        Map<String, AttributeValue> existing = putIfAbsent(fresh);
        for (int round = 0; existing != null && round < MAX_CAS_ROUNDS; round++) {
            if (existing.isEmpty()) {
                existing = putIfAbsent(fresh);
                continue;
            }
            ClaimRecord stored = ClaimItems.fromItem(existing);
            if (!stored.isExpired(now)
                    && (stored.status() == ClaimStatus.COMPLETED
                            || (stored.status() == ClaimStatus.IN_PROGRESS && !stored.isLeaseExpired(now)))) {
                return FencedWrite.FENCED_OUT;
            }
            existing =
                    compareAndSet(failedRecord(ClaimRules.claimedRecord(stored, request, now), failure, now), stored);
        }
        return existing == null ? FencedWrite.APPLIED : FencedWrite.FENCED_OUT;
    }

    private static ClaimRecord failedRecord(ClaimRecord claimed, FailureRecord failure, Instant now) {
        return claimed.failed(failure, now);
    }

    /** The stored claim, expired or not (the rules decide), or null when there is none. */
    private ClaimRecord storedClaim(IdempotencyKey key) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(ClaimItems.key(key)).consistentRead(true))
                .item();
        return item == null || item.isEmpty() ? null : ClaimItems.fromItem(item);
    }

    /** Writes {@code record} if the key is absent; returns null on success, else the stored item. */
    private Map<String, AttributeValue> putIfAbsent(ClaimRecord record) {
        try {
            dynamoDb.putItem(b -> b.tableName(table)
                    .item(ClaimItems.toItem(record))
                    .conditionExpression(NEW_KEY)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return null;
        } catch (ConditionalCheckFailedException e) {
            return storedItemOf(e, record.key());
        }
    }

    /** Replaces the record if it is still {@code stored} (same version); null on success, else the stored item. */
    private Map<String, AttributeValue> compareAndSet(ClaimRecord successor, ClaimRecord stored) {
        try {
            Expected expected = Expected.of(stored.version(), stored.fencingToken());
            dynamoDb.putItem(b -> b.tableName(table)
                    .item(ClaimItems.toItem(successor))
                    .conditionExpression(expected.condition())
                    .expressionAttributeNames(expected.names())
                    .expressionAttributeValues(expected.values())
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return null;
        } catch (ConditionalCheckFailedException e) {
            Map<String, AttributeValue> item = storedItemOf(e, successor.key());
            if (item.isEmpty()) {
                // Deleted meanwhile (TTL): the next round claims it as new.
                return putIfAbsent(successor);
            }
            return item;
        }
    }

    private Put claimPut(ClaimRecord record, ClaimRecord expected) {
        Put.Builder put = Put.builder()
                .tableName(table)
                .item(ClaimItems.toItem(record))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
        if (expected == null) {
            return put.conditionExpression(NEW_KEY).build();
        }
        Expected condition = Expected.of(expected.version(), expected.fencingToken());
        return put.conditionExpression(condition.condition())
                .expressionAttributeNames(condition.names())
                .expressionAttributeValues(condition.values())
                .build();
    }

    /** The compare-and-set condition on the stored record's version (or, for a record without one, its token). */
    private record Expected(String condition, Map<String, String> names, Map<String, AttributeValue> values) {
        static Expected of(long version, long token) {
            if (version == 0) {
                return new Expected(
                        NO_VERSION_YET,
                        Map.of("#version", VERSION, "#token", FENCING_TOKEN),
                        Map.of(":expectedToken", n(token)));
            }
            return new Expected(SAME_VERSION, Map.of("#version", VERSION), Map.of(":expectedVersion", n(version)));
        }
    }

    /**
     * What a cancelled transaction says, the claim's reason (index 0) first, always: the claim decides, and the
     * effect's writes were built for the claim this attempt guessed (token 1 for a key assumed new). So a failed claim
     * condition returns the stored claim to decide again, whatever the effect's reasons say (a redelivered duplicate of
     * an insert-once effect is a duplicate, not a condition failure); a conflict on the claim decided nothing and is
     * retried; only when the claim's condition held is an effect's own refusal a verdict on the effect.
     */
    private ClaimRecord interpretCancellation(TransactionCanceledException e) {
        List<CancellationReason> reasons = e.cancellationReasons();
        if (reasons == null || reasons.isEmpty()) {
            throw new EffectConflict(
                    EffectConflict.Kind.CONFLICT,
                    "transaction cancelled without reasons: " + e.getMessage(),
                    "dynamodb");
        }
        CancellationReason claimReason = reasons.get(0);
        if ("ConditionalCheckFailed".equals(claimReason.code())) {
            Map<String, AttributeValue> item = claimReason.item();
            if (item == null || item.isEmpty()) {
                return null; // gone meanwhile: claim as new
            }
            return ClaimItems.fromItem(item);
        }
        if (!isNone(claimReason)) {
            throw new EffectConflict(
                    EffectConflict.Kind.CONFLICT,
                    "the claim item met a concurrent write (" + claimReason.code() + "); nothing was written",
                    "dynamodb");
        }
        for (int i = 1; i < reasons.size(); i++) {
            if ("ConditionalCheckFailed".equals(reasons.get(i).code())) {
                throw new EffectConflict(
                        EffectConflict.Kind.CONDITION_FAILED,
                        "the condition of effect write " + i + " failed; nothing was written",
                        "dynamodb");
            }
        }
        throw new EffectConflict(
                EffectConflict.Kind.CONFLICT,
                "transaction cancelled (" + describe(reasons) + "); nothing was written",
                "dynamodb");
    }

    private static boolean isNone(CancellationReason reason) {
        return reason.code() == null || "None".equals(reason.code());
    }

    private FencedWrite conditionalUpdate(
            IdempotencyKey key, String update, Map<String, String> names, Map<String, AttributeValue> values) {
        try {
            dynamoDb.updateItem(b -> b.tableName(table)
                    .key(ClaimItems.key(key))
                    .updateExpression(update)
                    .conditionExpression(HELD_BY_TOKEN)
                    .expressionAttributeNames(names)
                    .expressionAttributeValues(values));
            return FencedWrite.APPLIED;
        } catch (ConditionalCheckFailedException e) {
            return FencedWrite.FENCED_OUT;
        }
    }

    private static Map<String, String> heldByNames() {
        return Map.of("#status", STATUS, "#token", FENCING_TOKEN);
    }

    private static Map<String, AttributeValue> heldByValues(long fencingToken) {
        return Map.of(":inProgress", s(ClaimStatus.IN_PROGRESS.name()), ":token", n(fencingToken));
    }

    /**
     * The stored item the failed write returned (ALL_OLD). An endpoint that does not return it costs one consistent
     * read instead; DynamoDB and moto both return it.
     */
    private Map<String, AttributeValue> storedItemOf(ConditionalCheckFailedException e, IdempotencyKey key) {
        if (e.hasItem() && !e.item().isEmpty()) {
            return e.item();
        }
        Map<String, AttributeValue> read = dynamoDb.getItem(
                        b -> b.tableName(table).key(ClaimItems.key(key)).consistentRead(true))
                .item();
        return read == null ? Map.of() : read;
    }

    private static String describe(List<CancellationReason> reasons) {
        StringBuilder b = new StringBuilder();
        for (CancellationReason r : reasons) {
            b.append(b.length() == 0 ? "" : ", ").append(r.code());
        }
        return b.toString();
    }
}
