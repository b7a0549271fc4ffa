package dev.redrive.core.failure;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The failure metadata recorded on every failed attempt, on the claim record and on a dead letter sent by the
 * consumer. It never holds payload content.
 *
 * @param classification class, error type, short reason, dependency
 * @param attempt        which delivery failed (SQS ApproximateReceiveCount)
 * @param firstFailedAt  when the first failure under this key happened
 * @param lastFailedAt   when this one happened
 * @param sourceQueue    the queue the message was consumed from
 * @param buildVersion   the consumer's build version when it failed ({@code REDRIVE_BUILD_VERSION}, else the Lambda
 *                       function version, else {@value #UNKNOWN_VERSION}); empty in a record written before versions were
 *                       recorded
 */
public record FailureRecord(
        Classification classification,
        int attempt,
        Instant firstFailedAt,
        Instant lastFailedAt,
        String sourceQueue,
        String buildVersion) {

    /** The version of a consumer that knows none. */
    public static final String UNKNOWN_VERSION = "unknown";

    /**
     * The longest build version a consumer records: a release, a commit, an image tag. It travels with every failure,
     * in the dead-letter metadata attribute among others.
     */
    public static final int MAX_VERSION_LENGTH = 128;

    /**
     * Why {@code version} cannot be a consumer's build version, as the end of a sentence that names the setting ("is
     * blank", "is 130 characters long; at most 128", "holds a control character"); empty when it can. The one rule of
     * the consumer's settings and of the IaC that sets them.
     */
    public static Optional<String> versionProblem(String version) {
        if (version == null || version.isBlank()) {
            return Optional.of("is blank");
        }
        if (version.length() > MAX_VERSION_LENGTH) {
            return Optional.of("is " + version.length() + " characters long; at most " + MAX_VERSION_LENGTH
                    + " (a release, a commit, an image tag)");
        }
        if (version.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("holds a control character; a version is one line of printable text");
        }
        return Optional.empty();
    }

    /** A failure with no build version recorded (a record written before versions were). */
    public FailureRecord(
            Classification classification,
            int attempt,
            Instant firstFailedAt,
            Instant lastFailedAt,
            String sourceQueue) {
        this(classification, attempt, firstFailedAt, lastFailedAt, sourceQueue, "");
    }

    public FailureRecord {
        buildVersion = buildVersion == null ? "" : buildVersion.strip();
        Objects.requireNonNull(classification, "classification");
        Objects.requireNonNull(firstFailedAt, "firstFailedAt");
        Objects.requireNonNull(lastFailedAt, "lastFailedAt");
        sourceQueue = sourceQueue == null ? "" : sourceQueue;
        if (lastFailedAt.isBefore(firstFailedAt)) {
            throw new IllegalArgumentException("lastFailedAt is before firstFailedAt");
        }
    }

    public FailureClass failureClass() {
        return classification.failureClass();
    }

    /** This failure following {@code previous} (which may be null): keeps the first failure time. */
    public static FailureRecord next(
            FailureRecord previous, Classification classification, int attempt, Instant now, String sourceQueue) {
        return next(previous, classification, attempt, now, sourceQueue, "");
    }

    /** This failure of a consumer of build {@code buildVersion} following {@code previous} (which may be null). */
    public static FailureRecord next(
            FailureRecord previous,
            Classification classification,
            int attempt,
            Instant now,
            String sourceQueue,
            String buildVersion) {
        Instant first = previous == null ? now : previous.firstFailedAt();
        return new FailureRecord(
                classification, attempt, first.isAfter(now) ? now : first, now, sourceQueue, buildVersion);
    }

    /** This failure, with the first failure time of {@code earlier} when that is earlier (null: unchanged). */
    public FailureRecord keepingFirstOf(FailureRecord earlier) {
        if (earlier == null || !earlier.firstFailedAt().isBefore(firstFailedAt)) {
            return this;
        }
        return new FailureRecord(
                classification, attempt, earlier.firstFailedAt(), lastFailedAt, sourceQueue, buildVersion);
    }
}
