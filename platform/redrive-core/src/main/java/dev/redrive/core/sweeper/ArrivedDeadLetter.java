package dev.redrive.core.sweeper;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.replay.ReplayMarker;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A message received from a dead-letter queue, with Redrive's markers decoded.
 *
 * @param messageId       its id in the dead-letter queue
 * @param receiptHandle   to delete it once quarantined
 * @param body            the payload
 * @param attributes      its own attributes, each with its type (String, Number, Binary and custom types), Redrive's
 *                        markers removed
 * @param receiveCount    how often the source delivered it (from the attached failure, or the DLQ's own count)
 * @param sentAt          when it entered the dead-letter queue
 * @param attached        the failure metadata a consumer attached when it dead-lettered it itself
 * @param replay          the replay marker, when it is a replay that failed again
 */
public record ArrivedDeadLetter(
        String messageId,
        String receiptHandle,
        String body,
        Map<String, MessageAttribute> attributes,
        int receiveCount,
        Instant sentAt,
        Optional<AttachedFailure> attached,
        Optional<ReplayMarker> replay) {

    public ArrivedDeadLetter {
        Objects.requireNonNull(messageId, "messageId");
        body = body == null ? "" : body;
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        attached = attached == null ? Optional.empty() : attached;
        replay = replay == null ? Optional.empty() : replay;
    }

    /**
     * What the consumer said when it dead-lettered the message.
     *
     * @param consumer        which consumer
     * @param idempotencyKey  the claim key, or null when the message had none
     * @param sourceMessageId the message's id in the source queue
     * @param failure         the failure
     */
    public record AttachedFailure(
            String consumer, String idempotencyKey, String sourceMessageId, FailureRecord failure) {}

    /** The text of its String and Number attributes: what a consumer and a claim check read. */
    public Map<String, String> stringAttributes() {
        return MessageAttribute.strings(attributes);
    }

    /** The source message id: stable across a re-sent dead letter (SQS redrive keeps the id; Redrive records it). */
    public String sourceMessageId() {
        return attached.map(AttachedFailure::sourceMessageId)
                .filter(s -> !s.isBlank())
                .orElse(messageId);
    }
}
