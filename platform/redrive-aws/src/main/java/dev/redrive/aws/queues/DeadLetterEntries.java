package dev.redrive.aws.queues;

import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.failure.Printable;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.sweeper.ArrivedDeadLetter.AttachedFailure;
import dev.redrive.core.sweeper.DeadLetterNotes;
import dev.redrive.core.sweeper.DeadLetterNotes.NoteKey;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * The shape a dead letter goes to its DLQ in: the original body and every original attribute with its type, plus its
 * failure metadata ({@value DeadLetterMetadata#ATTRIBUTE}), in the first of these that SQS takes (ten attributes and
 * 1 MiB a message):
 *
 * <ol>
 *   <li>inline, with the metadata attribute;
 *   <li>by claim check (when a store is configured and the pointer's marker and the metadata both have room): the
 *       Extended Client Library's pointer, its marker, the metadata;
 *   <li>inline without room for the metadata (ten attributes already): the metadata goes into a dead-letter note
 *       keyed by the message as sent, which the sweeper reads ({@link DeadLetterNotes});
 *   <li>by claim check with room for the marker only (nine attributes): pointer and marker, the metadata in a note.
 * </ol>
 *
 * Nothing else fits: the dead letter is not sent, and stays in its source (reported failed, never acknowledged). So is
 * one whose note could not be kept: it comes back, and the next attempt keeps it. Without a note store, a dead letter
 * without room goes without its metadata (logged), as before notes existed.
 */
final class DeadLetterEntries {

    private static final Logger LOG = Logger.getLogger(SqsQueueGateway.class);

    /** SQS's limit on a message, and on a batch call's messages together. */
    static final int SQS_MAX_BYTES = 1024 * 1024;

    private final ClaimChecks claimChecks;
    private final SqsQueueGateway.Notes notes;

    DeadLetterEntries(ClaimChecks claimChecks, SqsQueueGateway.Notes notes) {
        this.claimChecks = claimChecks == null ? ClaimChecks.NONE : claimChecks;
        this.notes = notes == null ? SqsQueueGateway.Notes.NONE : notes;
    }

    /** A body and its attributes as sent. */
    private record Shape(String body, Map<String, MessageAttributeValue> attributes) {}

    /**
     * The entry that sends {@code letter} to the dead-letter queue {@code deadLetterQueue} (a name); empty when it
     * cannot be sent at all (it is then reported failed and stays in the source).
     */
    Optional<SendMessageBatchRequestEntry> entry(
            String entryId, DeadLetter letter, String deadLetterQueue, boolean fifo) {
        return shape(letter, deadLetterQueue).map(s -> {
            IncomingMessage m = letter.message();
            SendMessageBatchRequestEntry.Builder e = SendMessageBatchRequestEntry.builder()
                    .id(entryId)
                    .messageBody(s.body())
                    .messageAttributes(s.attributes());
            if (fifo) {
                e.messageGroupId(m.messageGroupId() == null ? "dead-letters" : m.messageGroupId())
                        .messageDeduplicationId(m.messageId());
            }
            return e.build();
        });
    }

    private Optional<Shape> shape(DeadLetter letter, String deadLetterQueue) {
        IncomingMessage m = letter.message();
        String body = m.body();
        Map<String, MessageAttributeValue> original = new HashMap<>(SqsAttributes.toSqs(m.delivered()));
        Map<String, MessageAttributeValue> withMetadata = new HashMap<>(original);
        withMetadata.put(
                DeadLetterMetadata.ATTRIBUTE, text(DeadLetterMetadata.of(letter).toJson()));
        if (sendable(body) && fits(body, withMetadata)) {
            return Optional.of(new Shape(body, withMetadata));
        }
        boolean checksIn = claimChecks != ClaimChecks.NONE;
        if (checksIn && withMetadata.size() < SqsAttributes.MAX_PER_MESSAGE) {
            return checkedIn(letter, withMetadata);
        }
        if (sendable(body) && fits(body, original)) {
            return noted(letter, deadLetterQueue, new Shape(body, original));
        }
        if (checksIn && original.size() < SqsAttributes.MAX_PER_MESSAGE) {
            return checkedIn(letter, original).flatMap(s -> noted(letter, deadLetterQueue, s));
        }
        LOG.errorf(
                "dead letter %s cannot be sent (%s, %d attributes) and no claim-check store takes its body; it stays "
                        + "in the source, reported failed: %s %s",
                Printable.escape(m.messageId()),
                sendable(body) ? size(body, original) + " bytes" : "a character SQS refuses",
                original.size(),
                letter.failure().failureClass(),
                letter.failure().classification().errorType());
        return Optional.empty();
    }

    /** The body checked in: the pointer, with {@code attributes} and the pointer's marker (a Number). */
    private Optional<Shape> checkedIn(DeadLetter letter, Map<String, MessageAttributeValue> attributes) {
        IncomingMessage m = letter.message();
        try {
            ClaimChecks.ClaimCheck check = claimChecks.checkIn(m.body());
            Map<String, MessageAttributeValue> withMarker = new HashMap<>(attributes);
            check.attributes().forEach((k, v) -> withMarker.put(k, number(v)));
            LOG.infof(
                    "dead letter %s goes by claim check (%d bytes with its metadata, or a character SQS refuses)",
                    Printable.escape(m.messageId()), size(m.body(), attributes));
            return Optional.of(new Shape(check.body(), withMarker));
        } catch (RuntimeException e) {
            LOG.errorf(
                    "dead letter %s could not be checked in (%s); it stays in the source, reported failed",
                    Printable.escape(m.messageId()), e.getClass().getSimpleName());
            return Optional.empty();
        }
    }

    /**
     * {@code shape} as sent, its metadata kept in a note under its fingerprint first (so the sweeper never receives it
     * before its note). Without a note store, it goes without its metadata, the failure logged.
     */
    private Optional<Shape> noted(DeadLetter letter, String deadLetterQueue, Shape shape) {
        IncomingMessage m = letter.message();
        if (notes.store() == DeadLetterNotes.NONE) {
            LOG.warnf(
                    "dead letter %s has no room for its failure metadata (%d attributes) and no note store is "
                            + "configured; it stays on the claim record only, if the message has one: consumer=%s key=%s "
                            + "class=%s errorType=%s reason=\"%s\"",
                    Printable.escape(m.messageId()),
                    shape.attributes().size(),
                    letter.consumer(),
                    Printable.escape(letter.idempotencyKey()),
                    letter.failure().failureClass(),
                    Printable.escape(letter.failure().classification().errorType()),
                    letter.failure().classification().reason());
            return Optional.of(shape);
        }
        NoteKey key = NoteKey.of(deadLetterQueue, shape.body(), SqsAttributes.fromSqs(shape.attributes()));
        try {
            notes.store()
                    .keep(
                            key,
                            new AttachedFailure(
                                    letter.consumer(), letter.idempotencyKey(), m.messageId(), letter.failure()),
                            notes.clock().instant().plus(notes.keepFor()));
        } catch (RuntimeException e) {
            LOG.errorf(
                    "dead letter %s has no room for its failure metadata, and its note could not be kept (%s); it stays "
                            + "in the source, reported failed: %s %s",
                    Printable.escape(m.messageId()),
                    e.getClass().getSimpleName(),
                    letter.failure().failureClass(),
                    Printable.escape(letter.failure().classification().errorType()));
            return Optional.empty();
        }
        LOG.infof(
                "dead letter %s has no room for its failure metadata (%d attributes); kept in note %s",
                Printable.escape(m.messageId()), shape.attributes().size(), key.fingerprint());
        return Optional.of(shape);
    }

    /** A message's size as SQS counts it: the body, and each attribute's name, data type and value. */
    static long size(String body, Map<String, MessageAttributeValue> attributes) {
        long size = utf8(body);
        for (Map.Entry<String, MessageAttributeValue> a : attributes.entrySet()) {
            size += utf8(a.getKey())
                    + utf8(a.getValue().dataType())
                    + utf8(a.getValue().stringValue())
                    + (a.getValue().binaryValue() == null
                            ? 0
                            : a.getValue().binaryValue().asByteArrayUnsafe().length);
        }
        return size;
    }

    private static long utf8(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static boolean fits(String body, Map<String, MessageAttributeValue> attributes) {
        return attributes.size() <= SqsAttributes.MAX_PER_MESSAGE && size(body, attributes) <= SQS_MAX_BYTES;
    }

    /**
     * Whether SQS accepts every character of {@code body}: #x9, #xA, #xD, #x20 to #xD7FF, #xE000 to #xFFFD and
     * #x10000 to #x10FFFF (so no other control character, no lone surrogate, no U+FFFE/U+FFFF), and at least one.
     */
    static boolean sendable(String body) {
        if (body.isEmpty()) {
            return false; // SQS refuses an empty body
        }
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < body.length() && Character.isLowSurrogate(body.charAt(i + 1))) {
                i++;
                continue;
            }
            boolean ok = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static MessageAttributeValue text(String value) {
        return MessageAttributeValue.builder()
                .dataType("String")
                .stringValue(value)
                .build();
    }

    private static MessageAttributeValue number(String value) {
        return MessageAttributeValue.builder()
                .dataType(ClaimCheckPointer.SIZE_DATA_TYPE)
                .stringValue(value)
                .build();
    }
}
