package dev.redrive.aws.queues;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.QueueGateway;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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

/** The queue gateway on SQS: batch calls of up to ten entries and 1 MiB together, failures per entry. */
public final class SqsQueueGateway implements QueueGateway {

    private static final Logger LOG = Logger.getLogger(SqsQueueGateway.class);
    private static final int SQS_BATCH = 10;
    private static final int SQS_MAX_ATTRIBUTES = 10;
    /** SQS's limit on a message, and on a batch call's messages together. */
    static final int SQS_MAX_BYTES = 1024 * 1024;

    private final SqsClient sqs;
    private final QueueDirectory queues;

    public SqsQueueGateway(SqsClient sqs, QueueDirectory queues) {
        this.sqs = sqs;
        this.queues = queues;
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
            idByEntry.put(entryId, letter.message().messageId());
            all.add(entry(entryId, letter, fifo));
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
                    + utf8(a.getValue().stringValue());
        }
        return size;
    }

    private static long size(SendMessageBatchRequestEntry e) {
        return size(e.messageBody(), e.messageAttributes());
    }

    private static long utf8(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static SendMessageBatchRequestEntry entry(String entryId, DeadLetter letter, boolean fifo) {
        IncomingMessage m = letter.message();
        Map<String, MessageAttributeValue> attributes = new HashMap<>();
        m.attributes()
                .forEach((k, v) -> attributes.put(
                        k,
                        MessageAttributeValue.builder()
                                .dataType("String")
                                .stringValue(v)
                                .build()));
        MessageAttributeValue metadata = MessageAttributeValue.builder()
                .dataType("String")
                .stringValue(DeadLetterMetadata.of(letter).toJson())
                .build();
        Map<String, MessageAttributeValue> withMetadata = new HashMap<>(attributes);
        withMetadata.put(DeadLetterMetadata.ATTRIBUTE, metadata);
        boolean roomForMetadata =
                attributes.size() < SQS_MAX_ATTRIBUTES || attributes.containsKey(DeadLetterMetadata.ATTRIBUTE);
        if (roomForMetadata && size(m.body(), withMetadata) <= SQS_MAX_BYTES) {
            attributes.put(DeadLetterMetadata.ATTRIBUTE, metadata);
        } else if (roomForMetadata) {
            LOG.warnf(
                    "message %s is too close to SQS's 1 MiB limit to carry its failure metadata; it stays on the "
                            + "claim record only",
                    m.messageId());
        } else {
            LOG.warnf(
                    "message %s already has %d attributes; its failure metadata stays on the claim record only",
                    m.messageId(), attributes.size());
        }
        SendMessageBatchRequestEntry.Builder e = SendMessageBatchRequestEntry.builder()
                .id(entryId)
                .messageBody(m.body())
                .messageAttributes(attributes);
        if (fifo) {
            e.messageGroupId(m.messageGroupId() == null ? "dead-letters" : m.messageGroupId())
                    .messageDeduplicationId(m.messageId());
        }
        return e.build();
    }
}
