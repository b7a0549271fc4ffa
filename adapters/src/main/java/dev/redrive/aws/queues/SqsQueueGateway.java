package dev.redrive.aws.queues;

import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.QueueGateway;
import dev.redrive.core.failure.Printable;
import dev.redrive.core.payload.ClaimChecks;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * The queue gateway on SQS: batch calls of up to ten entries and 1 MiB together, failures per entry. A dead letter is
 * the original message (body and every attribute, with its type) plus its failure metadata; one that cannot go inline
 * goes by claim check, and one that cannot go at all is reported failed with the reason logged, never acknowledged.
 */
public final class SqsQueueGateway implements QueueGateway {

    private static final Logger LOG = Logger.getLogger(SqsQueueGateway.class);
    private static final int SQS_BATCH = 10;
    private static final int SQS_MAX_ATTRIBUTES = SqsAttributes.MAX_PER_MESSAGE;
    /** SQS's limit on a message, and on a batch call's messages together. */
    static final int SQS_MAX_BYTES = 1024 * 1024;

    private final SqsClient sqs;
    private final QueueDirectory queues;
    private final ClaimChecks claimChecks;

    /** A gateway without claim checks: a dead letter that cannot go inline is reported failed. */
    public SqsQueueGateway(SqsClient sqs, QueueDirectory queues) {
        this(sqs, queues, ClaimChecks.NONE);
    }

    /**
     * @param claimChecks where a dead letter's body goes when it cannot be re-sent inline (too large with its failure
     *                    metadata, or holding a character SQS refuses): the message then carries the Extended Client
     *                    Library's pointer, marker attribute and its failure metadata
     */
    public SqsQueueGateway(SqsClient sqs, QueueDirectory queues, ClaimChecks claimChecks) {
        this.sqs = sqs;
        this.queues = queues;
        this.claimChecks = claimChecks == null ? ClaimChecks.NONE : claimChecks;
    }

    @Override
    public Set<String> changeVisibility(String sourceQueue, List<VisibilityChange> changes) {
        Set<String> failed = new HashSet<>();
        String url;
        try {
            url = queues.url(sourceQueue);
        } catch (SdkException e) {
            LOG.warnf(
                    "could not resolve %s to change visibility of %d messages: %s",
                    sourceQueue, changes.size(), e.getMessage());
            changes.forEach(c -> failed.add(c.messageId()));
            return failed;
        }
        for (int from = 0; from < changes.size(); from += SQS_BATCH) {
            List<VisibilityChange> chunk = changes.subList(from, Math.min(changes.size(), from + SQS_BATCH));
            List<ChangeMessageVisibilityBatchRequestEntry> entries = new ArrayList<>();
            Map<String, String> idByEntry = new HashMap<>();
            for (int i = 0; i < chunk.size(); i++) {
                VisibilityChange c = chunk.get(i);
                String entryId = "v" + i;
                idByEntry.put(entryId, c.messageId());
                entries.add(ChangeMessageVisibilityBatchRequestEntry.builder()
                        .id(entryId)
                        .receiptHandle(c.receiptHandle())
                        .visibilityTimeout(c.timeoutSeconds())
                        .build());
            }
            try {
                ChangeMessageVisibilityBatchResponse r =
                        sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url).entries(entries));
                for (BatchResultErrorEntry e : r.failed()) {
                    failed.add(idByEntry.get(e.id()));
                    LOG.warnf(
                            "visibility change of message %s failed: %s %s",
                            idByEntry.get(e.id()), e.code(), e.message());
                }
            } catch (SdkException e) {
                LOG.warnf(
                        "ChangeMessageVisibilityBatch on %s failed for %d messages: %s",
                        url, chunk.size(), e.getMessage());
                chunk.forEach(c -> failed.add(c.messageId()));
            }
        }
        return failed;
    }

    @Override
    public Set<String> deadLetter(String sourceQueue, List<DeadLetter> letters) {
        Set<String> failed = new HashSet<>();
        String dlq;
        try {
            dlq = queues.deadLetterUrl(sourceQueue);
        } catch (RuntimeException e) {
            LOG.errorf(
                    "cannot dead-letter %d messages of %s, they stay in the source: %s",
                    letters.size(), sourceQueue, e.getMessage());
            letters.forEach(l -> failed.add(l.message().messageId()));
            return failed;
        }
        boolean fifo = QueueAddress.nameOf(dlq).endsWith(".fifo");
        List<SendMessageBatchRequestEntry> all = new ArrayList<>();
        Map<String, String> idByEntry = new HashMap<>();
        for (int i = 0; i < letters.size(); i++) {
            DeadLetter letter = letters.get(i);
            String entryId = "d" + i;
            Optional<SendMessageBatchRequestEntry> entry = entry(entryId, letter, fifo);
            if (entry.isEmpty()) {
                failed.add(letter.message().messageId());
                continue;
            }
            idByEntry.put(entryId, letter.message().messageId());
            all.add(entry.get());
        }
        for (List<SendMessageBatchRequestEntry> chunk : chunks(all)) {
            try {
                SendMessageBatchResponse r =
                        sqs.sendMessageBatch(b -> b.queueUrl(dlq).entries(chunk));
                for (BatchResultErrorEntry e : r.failed()) {
                    failed.add(idByEntry.get(e.id()));
                    LOG.warnf(
                            "dead-letter send of message %s failed (it stays in the source): %s %s",
                            idByEntry.get(e.id()), e.code(), e.message());
                }
            } catch (SdkException e) {
                LOG.warnf(
                        "SendMessageBatch to %s failed for %d messages (they stay in the source): %s",
                        dlq, chunk.size(), e.getMessage());
                chunk.forEach(entry -> failed.add(idByEntry.get(entry.id())));
            }
        }
        return failed;
    }

    /**
     * Batch calls of at most ten entries and at most {@value #SQS_MAX_BYTES} bytes together (SQS refuses a longer
     * call whole), in order.
     */
    static List<List<SendMessageBatchRequestEntry>> chunks(List<SendMessageBatchRequestEntry> entries) {
        List<List<SendMessageBatchRequestEntry>> chunks = new ArrayList<>();
        List<SendMessageBatchRequestEntry> chunk = new ArrayList<>();
        long bytes = 0;
        for (SendMessageBatchRequestEntry e : entries) {
            long size = size(e);
            if (!chunk.isEmpty() && (chunk.size() == SQS_BATCH || bytes + size > SQS_MAX_BYTES)) {
                chunks.add(chunk);
                chunk = new ArrayList<>();
                bytes = 0;
            }
            chunk.add(e);
            bytes += size;
        }
        if (!chunk.isEmpty()) {
            chunks.add(chunk);
        }
        return chunks;
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

    private static long size(SendMessageBatchRequestEntry e) {
        return size(e.messageBody(), e.messageAttributes());
    }

    private static long utf8(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * The dead letter as sent: the original body and every original attribute with its type (Binary and Number
     * included), plus {@value DeadLetterMetadata#ATTRIBUTE}. A body that cannot go inline with its metadata (over
     * 1 MiB together, or holding a character SQS refuses) goes by claim check when one is configured; a message with
     * no room left for the metadata goes without it (its claim record keeps the failure). Empty when it cannot be
     * sent at all: it is then reported failed and stays in the source, never acknowledged.
     */
    private Optional<SendMessageBatchRequestEntry> entry(String entryId, DeadLetter letter, boolean fifo) {
        IncomingMessage m = letter.message();
        Map<String, MessageAttributeValue> attributes = originalAttributes(m);
        MessageAttributeValue metadata = text(DeadLetterMetadata.of(letter).toJson());
        String body = m.body();
        Map<String, MessageAttributeValue> withMetadata = with(attributes, DeadLetterMetadata.ATTRIBUTE, metadata);
        Map<String, MessageAttributeValue> chosen;
        if (sendable(body) && fits(body, withMetadata)) {
            chosen = withMetadata;
        } else if (claimChecks != ClaimChecks.NONE && withMetadata.size() < SQS_MAX_ATTRIBUTES) {
            try {
                ClaimChecks.ClaimCheck check = claimChecks.checkIn(body);
                chosen = new HashMap<>(withMetadata);
                check.attributes().forEach((k, v) -> chosen.put(k, number(v)));
                body = check.body();
                LOG.infof(
                        "dead letter %s goes by claim check (%d bytes with its metadata, or a character SQS refuses)",
                        Printable.escape(m.messageId()), size(m.body(), withMetadata));
            } catch (RuntimeException e) {
                LOG.errorf(
                        "dead letter %s could not be checked in (%s); it stays in the source, reported failed",
                        Printable.escape(m.messageId()), e.getClass().getSimpleName());
                return Optional.empty();
            }
        } else if (sendable(body) && fits(body, attributes)) {
            chosen = attributes;
            LOG.warnf(
                    "dead letter %s has no room for its failure metadata (%d attributes, %d bytes); it stays on the "
                            + "claim record only, if the message has one: consumer=%s key=%s class=%s errorType=%s "
                            + "reason=\"%s\"",
                    Printable.escape(m.messageId()),
                    attributes.size(),
                    size(body, withMetadata),
                    letter.consumer(),
                    Printable.escape(letter.idempotencyKey()),
                    letter.failure().failureClass(),
                    Printable.escape(letter.failure().classification().errorType()),
                    letter.failure().classification().reason());
        } else {
            LOG.errorf(
                    "dead letter %s cannot be sent (%s) and no claim-check store takes its body; it stays in the "
                            + "source, reported failed: %s %s",
                    Printable.escape(m.messageId()),
                    sendable(body) ? size(body, attributes) + " bytes" : "a character SQS refuses",
                    letter.failure().failureClass(),
                    letter.failure().classification().errorType());
            return Optional.empty();
        }
        SendMessageBatchRequestEntry.Builder e = SendMessageBatchRequestEntry.builder()
                .id(entryId)
                .messageBody(body)
                .messageAttributes(chosen);
        if (fifo) {
            e.messageGroupId(m.messageGroupId() == null ? "dead-letters" : m.messageGroupId())
                    .messageDeduplicationId(m.messageId());
        }
        return Optional.of(e.build());
    }

    private static Map<String, MessageAttributeValue> originalAttributes(IncomingMessage m) {
        return new HashMap<>(SqsAttributes.toSqs(m.delivered()));
    }

    private static Map<String, MessageAttributeValue> with(
            Map<String, MessageAttributeValue> attributes, String name, MessageAttributeValue value) {
        Map<String, MessageAttributeValue> all = new HashMap<>(attributes);
        all.put(name, value);
        return all;
    }

    private static boolean fits(String body, Map<String, MessageAttributeValue> attributes) {
        return attributes.size() <= SQS_MAX_ATTRIBUTES && size(body, attributes) <= SQS_MAX_BYTES;
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
