package dev.redrive.aws.claims;

import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The claims table's item layout. One item per key; {@code expiresAt} is the table's TTL attribute (epoch seconds),
 * every other instant is epoch milliseconds.
 */
public final class ClaimItems {

    public static final String PK = "pk";
    public static final String STATUS = "status";
    public static final String FENCING_TOKEN = "fencingToken";
    public static final String LEASE_EXPIRES_AT = "leaseExpiresAt";
    public static final String EXPIRES_AT = "expiresAt";
    public static final String PAYLOAD_HASH = "payloadHash";
    public static final String RESULT = "result";
    public static final String FAILURE_COUNT = "failureCount";
    public static final String VERSION = "version";
    public static final String ORIGIN_QUEUE = "originQueue";
    public static final String ORIGIN_MESSAGE_ID = "originMessageId";
    public static final String FAILURE_CLASS = "failureClass";
    public static final String ERROR_TYPE = "errorType";
    public static final String REASON = "reason";
    public static final String DEPENDENCY = "dependency";
    public static final String FAILED_ATTEMPT = "failedAttempt";
    public static final String FIRST_FAILED_AT = "firstFailedAt";
    public static final String LAST_FAILED_AT = "lastFailedAt";
    public static final String FAILURE_QUEUE = "failureQueue";
    /** The consumer's build version at the failure; absent in items written before versions were recorded. */
    public static final String BUILD_VERSION = "buildVersion";

    private ClaimItems() {}

    public static Map<String, AttributeValue> key(IdempotencyKey key) {
        return Map.of(PK, s(key.value()));
    }

    public static Map<String, AttributeValue> toItem(ClaimRecord r) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(PK, s(r.key().value()));
        item.put(STATUS, s(r.status().name()));
        item.put(FENCING_TOKEN, n(r.fencingToken()));
        item.put(LEASE_EXPIRES_AT, n(r.leaseExpiresAt().toEpochMilli()));
        item.put(EXPIRES_AT, n(r.expiresAt().getEpochSecond()));
        item.put(FAILURE_COUNT, n(r.failureCount()));
        item.put(VERSION, n(r.version()));
        putIfPresent(item, PAYLOAD_HASH, r.payloadHash());
        putIfPresent(item, RESULT, r.result());
        if (r.origin() != null) {
            putIfPresent(item, ORIGIN_QUEUE, r.origin().queue());
            putIfPresent(item, ORIGIN_MESSAGE_ID, r.origin().messageId());
        }
        if (r.lastFailure() != null) {
            item.putAll(failureAttributes(r.lastFailure()));
        }
        return item;
    }

    /**
     * The attributes that describe a failure, for an update's SET clause or a full item. {@value #BUILD_VERSION} is
     * left out when the failure has none (a release then removes an earlier failure's).
     */
    public static Map<String, AttributeValue> failureAttributes(FailureRecord f) {
        Map<String, AttributeValue> item = new HashMap<>();
        Classification c = f.classification();
        item.put(FAILURE_CLASS, s(c.failureClass().name()));
        item.put(ERROR_TYPE, s(c.errorType()));
        item.put(REASON, s(c.reason().isEmpty() ? "-" : c.reason()));
        item.put(DEPENDENCY, s(c.dependency() == null ? "" : c.dependency()));
        item.put(FAILED_ATTEMPT, n(f.attempt()));
        item.put(FIRST_FAILED_AT, n(f.firstFailedAt().toEpochMilli()));
        item.put(LAST_FAILED_AT, n(f.lastFailedAt().toEpochMilli()));
        item.put(FAILURE_QUEUE, s(f.sourceQueue()));
        putIfPresent(item, BUILD_VERSION, f.buildVersion());
        return item;
    }

    /** The failure {@link #failureAttributes} wrote, or null when the item holds none. */
    public static FailureRecord failureOf(Map<String, AttributeValue> item) {
        if (!item.containsKey(FAILURE_CLASS)) {
            return null;
        }
        String dependency = str(item, DEPENDENCY);
        String reason = str(item, REASON);
        return new FailureRecord(
                new Classification(
                        FailureClass.valueOf(str(item, FAILURE_CLASS)),
                        str(item, ERROR_TYPE),
                        "-".equals(reason) ? "" : reason,
                        dependency == null || dependency.isEmpty() ? null : dependency),
                (int) num(item, FAILED_ATTEMPT, 0),
                Instant.ofEpochMilli(num(item, FIRST_FAILED_AT, 0)),
                Instant.ofEpochMilli(num(item, LAST_FAILED_AT, 0)),
                str(item, FAILURE_QUEUE),
                str(item, BUILD_VERSION));
    }

    public static ClaimRecord fromItem(Map<String, AttributeValue> item) {
        FailureRecord failure = failureOf(item);
        String originQueue = str(item, ORIGIN_QUEUE);
        String originMessageId = str(item, ORIGIN_MESSAGE_ID);
        return new ClaimRecord(
                IdempotencyKey.parse(str(item, PK)),
                ClaimStatus.valueOf(str(item, STATUS)),
                num(item, FENCING_TOKEN, 1),
                Instant.ofEpochMilli(num(item, LEASE_EXPIRES_AT, 0)),
                Instant.ofEpochSecond(num(item, EXPIRES_AT, 0)),
                str(item, PAYLOAD_HASH),
                str(item, RESULT),
                failure,
                (int) num(item, FAILURE_COUNT, 0),
                new MessageOrigin(
                        originQueue == null ? "" : originQueue, originMessageId == null ? "" : originMessageId),
                num(item, VERSION, 0));
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private static void putIfPresent(Map<String, AttributeValue> item, String name, String value) {
        if (value != null && !value.isEmpty()) {
            item.put(name, s(value));
        }
    }

    private static String str(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }

    private static long num(Map<String, AttributeValue> item, String name, long fallback) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? fallback : Long.parseLong(v.n());
    }
}
