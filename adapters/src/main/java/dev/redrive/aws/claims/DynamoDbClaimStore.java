package dev.redrive.aws.claims;

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
 */
public final class DynamoDbClaimStore implements TransactionalClaimStore<TransactWriteItem> {

    /** A compare-and-set may lose to a concurrent writer; each loss re-reads from the failure and decides again. */
    private static final int MAX_CAS_ROUNDS = 8;

    private static final String NEW_KEY = "attribute_not_exists(" + PK + ")";
    private static final String SAME_VERSION = "#version = :expectedVersion";
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
            existing = compareAndSet(successor, stored.version());
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
    public FencedWrite complete(IdempotencyKey key, long fencingToken, String result, Instant now) {
        Map<String, AttributeValue> values = new HashMap<>(heldByValues(fencingToken));
        values.put(":completed", s(ClaimStatus.COMPLETED.name()));
        values.put(":one", n(1));
        String update = "SET #status = :completed ADD #version :one";
        if (result != null && !result.isEmpty()) {
            values.put(":result", s(result));
            update = "SET #status = :completed, #result = :result ADD #version :one";
        }
        Map<String, String> names = new HashMap<>(heldByNames());
        names.put("#version", VERSION);
        if (result != null && !result.isEmpty()) {
            names.put("#result", RESULT);
        }
        return conditionalUpdate(key, update, names, values);
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
        names.put("#version", VERSION);
        names.put("#failures", FAILURE_COUNT);
        values.put(":one", n(1));
        return conditionalUpdate(key, set + " ADD #version :one, #failures :one", names, values);
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
        for (int round = 0; round < MAX_CAS_ROUNDS; round++) {
            if (stored != null) {
                ClaimRules.Decision decision = ClaimRules.decide(stored, request, now);
                if (decision != ClaimRules.Decision.TAKE_OVER && decision != ClaimRules.Decision.CLAIM_NEW) {
                    return ClaimRules.rejection(decision, stored, request);
                }
            }
            ClaimRecord claimed = ClaimRules.claimedRecord(stored, request, now);
            ClaimRecord completed = new ClaimRecord(
                    claimed.key(),
                    ClaimStatus.COMPLETED,
                    claimed.fencingToken(),
                    claimed.leaseExpiresAt(),
                    claimed.expiresAt(),
                    claimed.payloadHash(),
                    result,
                    claimed.lastFailure(),
                    claimed.failureCount(),
                    claimed.origin(),
                    claimed.version());
            List<TransactWriteItem> items = new ArrayList<>();
            items.add(
                    TransactWriteItem.builder().put(claimPut(completed, stored)).build());
            items.addAll(effectWrites.apply(completed.fencingToken()));
            try {
                dynamoDb.transactWriteItems(b -> b.transactItems(items));
                return new ClaimOutcome.Acquired(completed, stored != null);
            } catch (TransactionCanceledException e) {
                stored = interpretCancellation(e);
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
            existing = compareAndSet(
                    failedRecord(ClaimRules.claimedRecord(stored, request, now), failure, now), stored.version());
        }
        return existing == null ? FencedWrite.APPLIED : FencedWrite.FENCED_OUT;
    }

    private static ClaimRecord failedRecord(ClaimRecord claimed, FailureRecord failure, Instant now) {
        return claimed.failed(failure, now);
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

    /** Replaces the record if it is still at {@code expectedVersion}; null on success, else the stored item. */
    private Map<String, AttributeValue> compareAndSet(ClaimRecord successor, long expectedVersion) {
        try {
            dynamoDb.putItem(b -> b.tableName(table)
                    .item(ClaimItems.toItem(successor))
                    .conditionExpression(SAME_VERSION)
                    .expressionAttributeNames(Map.of("#version", VERSION))
                    .expressionAttributeValues(Map.of(":expectedVersion", n(expectedVersion)))
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
        return put.conditionExpression(SAME_VERSION)
                .expressionAttributeNames(Map.of("#version", VERSION))
                .expressionAttributeValues(Map.of(":expectedVersion", n(expected.version())))
                .build();
    }

    /** What a cancelled transaction says: the stored claim (to decide again), or the effect's refusal. */
    private ClaimRecord interpretCancellation(TransactionCanceledException e) {
        List<CancellationReason> reasons = e.cancellationReasons();
        if (reasons == null || reasons.isEmpty()) {
            throw new EffectConflict(
                    EffectConflict.Kind.CONFLICT,
                    "transaction cancelled without reasons: " + e.getMessage(),
                    "dynamodb");
        }
        CancellationReason claimReason = reasons.get(0);
        for (int i = 1; i < reasons.size(); i++) {
            String code = reasons.get(i).code();
            if ("ConditionalCheckFailed".equals(code)) {
                throw new EffectConflict(
                        EffectConflict.Kind.CONDITION_FAILED,
                        "the condition of effect write " + i + " failed; nothing was written",
                        "dynamodb");
            }
        }
        if ("ConditionalCheckFailed".equals(claimReason.code())) {
            Map<String, AttributeValue> item = claimReason.item();
            if (item == null || item.isEmpty()) {
                return null; // gone meanwhile: claim as new
            }
            return ClaimItems.fromItem(item);
        }
        for (CancellationReason r : reasons) {
            if ("TransactionConflict".equals(r.code()) || "ThrottlingError".equals(r.code())) {
                throw new EffectConflict(
                        EffectConflict.Kind.CONFLICT,
                        "a concurrent transaction touched the same items (" + r.code() + ")",
                        "dynamodb");
            }
        }
        throw new EffectConflict(
                EffectConflict.Kind.CONFLICT, "transaction cancelled: " + describe(reasons), "dynamodb");
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
