package dev.redrive.aws.queues;

import dev.redrive.core.consumer.QueueGateway;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.sweeper.DeadLetterNotes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * The queue gateway on SQS: batch calls of up to ten entries and 1 MiB together, failures per entry. A dead letter is
 * the original message (body and every attribute, with its type) plus its failure metadata; one that cannot go inline
 * goes by claim check, one without room for its metadata leaves it in a note the sweeper reads, and one that cannot go
 * at all is reported failed with the reason logged, never acknowledged ({@link DeadLetterEntries}).
 */
public final class SqsQueueGateway implements QueueGateway {

    private static final Logger LOG = Logger.getLogger(SqsQueueGateway.class);
    private static final int SQS_BATCH = 10;
    /** SQS's limit on a message, and on a batch call's messages together. */
    static final int SQS_MAX_BYTES = DeadLetterEntries.SQS_MAX_BYTES;

    /** Where a dead letter's metadata goes when the message has no room for it (SQS's ten attributes). */
    public record Notes(DeadLetterNotes store, Duration keepFor, Clock clock) {
        /** No notes: a dead letter without room goes without its metadata, which is logged. */
        public static final Notes NONE = new Notes(DeadLetterNotes.NONE, Duration.ZERO, Clock.systemUTC());

        public Notes {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(keepFor, "keepFor");
            Objects.requireNonNull(clock, "clock");
        }
    }

    private final SqsClient sqs;
    private final QueueDirectory queues;
    private final DeadLetterEntries entries;

    /** A gateway without claim checks or notes: a dead letter that cannot go inline is reported failed. */
    public SqsQueueGateway(SqsClient sqs, QueueDirectory queues) {
        this(sqs, queues, ClaimChecks.NONE, Notes.NONE);
    }

    /** A gateway without notes: a dead letter without room for its metadata goes without it (logged). */
    public SqsQueueGateway(SqsClient sqs, QueueDirectory queues, ClaimChecks claimChecks) {
        this(sqs, queues, claimChecks, Notes.NONE);
    }

    /**
     * @param claimChecks where a dead letter's body goes when it cannot be re-sent inline (too large with its failure
     *                    metadata, or holding a character SQS refuses): the message then carries the Extended Client
     *                    Library's pointer, marker attribute and its failure metadata
     * @param notes       where a dead letter's failure metadata goes when the message has no room for it (ten
     *                    attributes already): a note the sweeper reads ({@link DeadLetterEntries})
     */
    public SqsQueueGateway(SqsClient sqs, QueueDirectory queues, ClaimChecks claimChecks, Notes notes) {
        this.sqs = sqs;
        this.queues = queues;
        this.entries = new DeadLetterEntries(claimChecks, notes);
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
        String dlqName = QueueAddress.nameOf(dlq);
        boolean fifo = dlqName.endsWith(".fifo");
        List<SendMessageBatchRequestEntry> all = new ArrayList<>();
        Map<String, String> idByEntry = new HashMap<>();
        for (int i = 0; i < letters.size(); i++) {
            DeadLetter letter = letters.get(i);
            String entryId = "d" + i;
            Optional<SendMessageBatchRequestEntry> entry = entries.entry(entryId, letter, dlqName, fifo);
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

    private static long size(SendMessageBatchRequestEntry e) {
        return DeadLetterEntries.size(e.messageBody(), e.messageAttributes());
    }
}
