package dev.redrive.aws.queues;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.core.sweeper.ArrivedDeadLetter.AttachedFailure;
import dev.redrive.core.sweeper.DeadLetterNotes;
import dev.redrive.core.sweeper.DeadLetterNotes.NoteKey;
import dev.redrive.core.sweeper.DeadLetterSource;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Dead letters from SQS, with Redrive's attributes decoded ({@value DeadLetterMetadata#ATTRIBUTE},
 * {@value ReplayMarker#ATTRIBUTE}) and removed from the attributes that travel on; those keep their types (String,
 * Number, Binary, custom ones), so the quarantine and a replay keep the original's. A FIFO dead letter's message group
 * is kept with its attributes as {@value #GROUP_ATTRIBUTE}, so that its replay goes back to the same group, in order
 * ({@link SqsReplaySender} takes it off again). A dead letter that came without its metadata (it had no room for it)
 * gets the failure its consumer kept in a dead-letter note, when the source is given the notes.
 */
public final class SqsDeadLetterSource implements DeadLetterSource {

    /** Where a FIFO dead letter's original MessageGroupId travels from the DLQ to its replay. */
    public static final String GROUP_ATTRIBUTE = "redrive-message-group";

    private final SqsClient sqs;
    private final QueueDirectory queues;
    /** How long a receive waits for a letter when the queue is empty (SQS long polling): 1 s unless set. */
    public static final int RECEIVE_WAIT_SECONDS = 1;

    private final int visibilityTimeoutSeconds;
    private final DeadLetterNotes notes;
    private final Clock clock;
    private final int receiveWaitSeconds;

    /** A source that reads no dead-letter notes: a dead letter without metadata arrives without it. */
    public SqsDeadLetterSource(SqsClient sqs, QueueDirectory queues, int visibilityTimeoutSeconds) {
        this(sqs, queues, visibilityTimeoutSeconds, DeadLetterNotes.NONE, Clock.systemUTC());
    }

    /**
     * @param visibilityTimeoutSeconds how long a received dead letter stays invisible: longer than the time to
     *                                 quarantine a batch, so a slow sweep does not see it twice
     * @param notes                    where a consumer kept the failure of a dead letter that had no room for it
     * @param clock                    when notes are read (an expired note is none)
     */
    public SqsDeadLetterSource(
            SqsClient sqs, QueueDirectory queues, int visibilityTimeoutSeconds, DeadLetterNotes notes, Clock clock) {
        this(sqs, queues, visibilityTimeoutSeconds, notes, clock, RECEIVE_WAIT_SECONDS);
    }

    private SqsDeadLetterSource(
            SqsClient sqs,
            QueueDirectory queues,
            int visibilityTimeoutSeconds,
            DeadLetterNotes notes,
            Clock clock,
            int receiveWaitSeconds) {
        if (receiveWaitSeconds < 0 || receiveWaitSeconds > 20) {
            throw new IllegalArgumentException(
                    "the receive wait is " + receiveWaitSeconds + " s: SQS long-polls 0 to 20 s");
        }
        this.sqs = sqs;
        this.queues = queues;
        this.visibilityTimeoutSeconds = visibilityTimeoutSeconds;
        this.notes = notes;
        this.clock = clock;
        this.receiveWaitSeconds = receiveWaitSeconds;
    }

    /**
     * This source, its receives waiting up to {@code seconds} (0 to 20) for a letter on an empty queue: 0 answers at
     * once (short polling; on SQS a short poll may miss letters, so a sweep keeps the default), and an empty queue
     * costs a receive its whole wait. Tests on a local SQS (which answers short polls completely) use 0.
     */
    public SqsDeadLetterSource withReceiveWait(int seconds) {
        return new SqsDeadLetterSource(sqs, queues, visibilityTimeoutSeconds, notes, clock, seconds);
    }

    @Override
    public List<ArrivedDeadLetter> receive(String deadLetterQueue) {
        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queues.url(deadLetterQueue))
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(receiveWaitSeconds)
                        .visibilityTimeout(visibilityTimeoutSeconds)
                        .messageAttributeNames("All")
                        .messageSystemAttributeNames(
                                MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT,
                                MessageSystemAttributeName.SENT_TIMESTAMP,
                                MessageSystemAttributeName.MESSAGE_GROUP_ID))
                .messages();
        List<ArrivedDeadLetter> letters = new ArrayList<>();
        for (Message m : messages) {
            letters.add(decode(m));
        }
        return notes == DeadLetterNotes.NONE ? letters : withNotes(deadLetterQueue, messages, letters);
    }

    /**
     * The letters, each that came without its failure metadata given the failure its consumer kept in a note (it had
     * no room for the attribute), found by the message as it came: body and every attribute with its type. One read
     * for the whole batch, and none when every letter carries its metadata. The letter keeps its own message id as its
     * source message id: identical copies share a note, and each is still quarantined on its own.
     */
    private List<ArrivedDeadLetter> withNotes(
            String deadLetterQueue, List<Message> messages, List<ArrivedDeadLetter> letters) {
        Map<Integer, NoteKey> keys = new LinkedHashMap<>();
        for (int i = 0; i < letters.size(); i++) {
            if (letters.get(i).attached().isEmpty()) {
                Message m = messages.get(i);
                keys.put(
                        i,
                        NoteKey.of(
                                QueueAddress.nameOf(deadLetterQueue),
                                m.body(),
                                SqsAttributes.fromSqs(m.messageAttributes())));
            }
        }
        if (keys.isEmpty()) {
            return letters;
        }
        Map<NoteKey, AttachedFailure> found = notes.findAll(keys.values(), clock.instant());
        List<ArrivedDeadLetter> noted = new ArrayList<>(letters);
        keys.forEach((i, key) -> {
            AttachedFailure note = found.get(key);
            if (note != null) {
                ArrivedDeadLetter l = letters.get(i);
                noted.set(
                        i,
                        new ArrivedDeadLetter(
                                l.messageId(),
                                l.receiptHandle(),
                                l.body(),
                                l.attributes(),
                                note.failure().attempt(),
                                l.sentAt(),
                                Optional.of(new AttachedFailure(
                                        note.consumer(), note.idempotencyKey(), null, note.failure())),
                                l.replay()));
            }
        });
        return noted;
    }

    static ArrivedDeadLetter decode(Message m) {
        Map<String, MessageAttribute> attributes = SqsAttributes.fromSqs(m.messageAttributes());
        Optional<DeadLetterMetadata> metadata =
                DeadLetterMetadata.parse(text(attributes.remove(DeadLetterMetadata.ATTRIBUTE)));
        Optional<ReplayMarker> marker = ReplayMarker.decode(text(attributes.remove(ReplayMarker.ATTRIBUTE)));
        attributes.remove(GROUP_ATTRIBUTE);
        String group = m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
        if (group != null && !group.isBlank()) {
            attributes.put(GROUP_ATTRIBUTE, MessageAttribute.ofString(group));
        }
        String sent = m.attributes().get(MessageSystemAttributeName.SENT_TIMESTAMP);
        String receives = m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT);
        int dlqReceives = receives == null ? 1 : Integer.parseInt(receives);
        return new ArrivedDeadLetter(
                m.messageId(),
                m.receiptHandle(),
                m.body(),
                attributes,
                metadata.map(DeadLetterMetadata::attempt).orElse(dlqReceives),
                sent == null ? Instant.now() : Instant.ofEpochMilli(Long.parseLong(sent)),
                metadata.map(md -> new ArrivedDeadLetter.AttachedFailure(
                        md.consumer(), md.idempotencyKey(), md.sourceMessageId(), md.failure())),
                marker);
    }

    private static String text(MessageAttribute a) {
        return a == null ? null : a.stringValue();
    }

    @Override
    public QueueDepth approximateDepth(String queue) {
        Map<QueueAttributeName, String> a = sqs.getQueueAttributes(b -> b.queueUrl(queues.url(queue))
                        .attributeNames(
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                .attributes();
        return new QueueDepth(
                number(a, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES),
                number(a, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE),
                number(a, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED));
    }

    private static long number(Map<QueueAttributeName, String> attributes, QueueAttributeName name) {
        String v = attributes.get(name);
        return v == null ? 0 : Long.parseLong(v);
    }

    @Override
    public void delete(String deadLetterQueue, List<ArrivedDeadLetter> letters) {
        for (int from = 0; from < letters.size(); from += 10) {
            List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
            List<ArrivedDeadLetter> chunk = letters.subList(from, Math.min(letters.size(), from + 10));
            for (int i = 0; i < chunk.size(); i++) {
                entries.add(DeleteMessageBatchRequestEntry.builder()
                        .id("d" + i)
                        .receiptHandle(chunk.get(i).receiptHandle())
                        .build());
            }
            var response = sqs.deleteMessageBatch(
                    b -> b.queueUrl(queues.url(deadLetterQueue)).entries(entries));
            if (!response.failed().isEmpty()) {
                // Not deleted: it comes back after its visibility timeout and is recognised as already quarantined.
                Logger.getLogger(SqsDeadLetterSource.class)
                        .warnf(
                                "%d dead letters of %s were quarantined but not deleted: %s",
                                response.failed().size(),
                                deadLetterQueue,
                                response.failed().get(0).code());
            }
        }
    }
}
