package dev.redrive.aws.queues;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;
import java.util.Optional;

/**
 * The failure metadata a consumer attaches to a message it dead-letters itself (PERMANENT, SCHEMA), as one JSON
 * string message attribute named {@value #ATTRIBUTE}. One attribute, because SQS allows ten per message and the
 * original message's own attributes travel along unchanged. No payload content.
 *
 * @param consumer        the consumer that gave up
 * @param idempotencyKey  the claim key, or null when the message had none
 * @param sourceQueue     the queue it was consumed from
 * @param sourceMessageId the message id in the source queue (stable across a re-sent dead letter: the sweeper
 *                        quarantines each once)
 * @param buildVersion    the consumer's build version when it failed; absent (null) in metadata a consumer attached
 *                        before versions were recorded, or when it records none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record DeadLetterMetadata(
        String consumer,
        String idempotencyKey,
        String sourceQueue,
        String sourceMessageId,
        String failureClass,
        String errorType,
        String reason,
        String dependency,
        int attempt,
        long firstFailedAtMillis,
        long lastFailedAtMillis,
        String buildVersion) {

    public static final String ATTRIBUTE = "redrive-failure";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Metadata with no build version (as a consumer attached it before versions were recorded). */
    public DeadLetterMetadata(
            String consumer,
            String idempotencyKey,
            String sourceQueue,
            String sourceMessageId,
            String failureClass,
            String errorType,
            String reason,
            String dependency,
            int attempt,
            long firstFailedAtMillis,
            long lastFailedAtMillis) {
        this(
                consumer,
                idempotencyKey,
                sourceQueue,
                sourceMessageId,
                failureClass,
                errorType,
                reason,
                dependency,
                attempt,
                firstFailedAtMillis,
                lastFailedAtMillis,
                null);
    }

    @JsonCreator
    public DeadLetterMetadata {
        buildVersion = buildVersion == null || buildVersion.isBlank() ? null : buildVersion;
    }

    public static DeadLetterMetadata of(DeadLetter letter) {
        FailureRecord f = letter.failure();
        Classification c = f.classification();
        return new DeadLetterMetadata(
                letter.consumer(),
                letter.idempotencyKey(),
                letter.message().sourceQueue(),
                letter.message().messageId(),
                c.failureClass().name(),
                c.errorType(),
                c.reason(),
                c.dependency(),
                f.attempt(),
                f.firstFailedAt().toEpochMilli(),
                f.lastFailedAt().toEpochMilli(),
                f.buildVersion());
    }

    public FailureRecord failure() {
        return new FailureRecord(
                new Classification(FailureClass.valueOf(failureClass), errorType, reason, dependency),
                attempt,
                Instant.ofEpochMilli(firstFailedAtMillis),
                Instant.ofEpochMilli(lastFailedAtMillis),
                sourceQueue,
                buildVersion);
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("failure metadata did not serialize", e);
        }
    }

    /** Reads the attribute back; empty when it is absent or not Redrive's. */
    public static Optional<DeadLetterMetadata> parse(String json) {
        if (json == null || json.isBlank()) {
            return Optional.empty();
        }
        try {
            DeadLetterMetadata m = JSON.readValue(json, DeadLetterMetadata.class);
            return m.failureClass() == null ? Optional.empty() : Optional.of(m);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
