package dev.redrive.core.claim;

import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One idempotency claim as stored.
 *
 * @param key            what is claimed
 * @param status         in progress, completed or failed
 * @param fencingToken   grows by one on every (re-)claim of the key; completing, releasing and downstream writes
 *                       are conditional on it, so a worker whose lease was taken over changes nothing. It is also
 *                       the number of attempts made so far.
 * @param leaseExpiresAt until when the holder may work undisturbed; after it another delivery may take over
 * @param expiresAt      when the record itself stops counting (the TTL attribute); reads treat it as absent after
 * @param payloadHash    fingerprint of the payload first claimed under the key
 * @param result         what the effect returned, for completed claims (small, never the payload)
 * @param lastFailure    the failure of the most recent failed attempt, if any
 * @param failureCount   how many attempts recorded a failure; {@code fencingToken - failureCount} attempts ended
 *                       without one (completed, still running, or vanished mid-flight)
 * @param origin         which queue and message the latest claim came from
 * @param version        optimistic-lock counter, bumped on every write
 */
public record ClaimRecord(
        IdempotencyKey key,
        ClaimStatus status,
        long fencingToken,
        Instant leaseExpiresAt,
        Instant expiresAt,
        String payloadHash,
        String result,
        FailureRecord lastFailure,
        int failureCount,
        MessageOrigin origin,
        long version) {

    public ClaimRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(leaseExpiresAt, "leaseExpiresAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (fencingToken < 1) {
            throw new IllegalArgumentException("fencing tokens start at 1: " + fencingToken);
        }
    }

    /** The record is past its own expiry and must be treated as if it did not exist (TTL deletion lags). */
    public boolean isExpired(Instant now) {
        return !now.isBefore(expiresAt);
    }

    /** The lease is over: nobody is entitled to be working on this key any more. */
    public boolean isLeaseExpired(Instant now) {
        return !now.isBefore(leaseExpiresAt);
    }

    public Optional<FailureRecord> failure() {
        return Optional.ofNullable(lastFailure);
    }

    /** This claim completed by its holder, with {@code result}: same token, lease and history. */
    public ClaimRecord completed(String newResult) {
        return completed(newResult, null);
    }

    /**
     * This claim completed with {@code newResult}; its record is kept at least until {@code keepUntil} (a completion
     * refreshes the record's expiry; null keeps it as it is).
     */
    public ClaimRecord completed(String newResult, Instant keepUntil) {
        return new ClaimRecord(
                key,
                ClaimStatus.COMPLETED,
                fencingToken,
                leaseExpiresAt,
                keepUntil == null || keepUntil.isBefore(expiresAt) ? expiresAt : keepUntil,
                payloadHash,
                newResult,
                lastFailure,
                failureCount,
                origin,
                version);
    }

    /**
     * This claim's attempt failed with {@code failure} at {@code now}: the lease ends now, one more failure counts, and
     * the first failure time of the claim's earlier failures is kept.
     */
    public ClaimRecord failed(FailureRecord failure, Instant now) {
        return new ClaimRecord(
                key,
                ClaimStatus.FAILED,
                fencingToken,
                now,
                expiresAt,
                payloadHash,
                null,
                failure.keepingFirstOf(lastFailure),
                failureCount + 1,
                origin,
                version);
    }

    public ClaimRecord withVersion(long newVersion) {
        return new ClaimRecord(
                key,
                status,
                fencingToken,
                leaseExpiresAt,
                expiresAt,
                payloadHash,
                result,
                lastFailure,
                failureCount,
                origin,
                newVersion);
    }

    /**
     * Attempts that neither completed nor recorded a failure, and whose lease is over: the worker crashed or timed
     * out mid-flight. This is the evidence for the POISON class.
     */
    public boolean vanishedMidFlight(Instant now) {
        return status == ClaimStatus.IN_PROGRESS && isLeaseExpired(now);
    }
}
