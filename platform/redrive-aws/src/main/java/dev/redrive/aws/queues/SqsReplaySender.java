package dev.redrive.aws.queues;

import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.core.breaker.ProbeTicket;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Printable;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Sends replays back to their source queue on SQS, ten per call. On a FIFO queue a replay goes back to the message
 * group it was dead-lettered from ({@value SqsDeadLetterSource#GROUP_ATTRIBUTE}, taken off the attributes sent), so it
 * keeps its order in its group and a failing replay holds back only its own group; a replay whose group is unknown
 * goes to the group {@value #FALLBACK_GROUP}. The deduplication id comes from the replay marker. A paced replay to a
 * standard queue is sent with its delay (DelaySeconds, in whole seconds, at most 900); a FIFO queue takes no
 * per-message delay, so its replays are paced by sending only the slots due now.
 */
public final class SqsReplaySender implements ReplaySender {

    private static final Logger LOG = Logger.getLogger(SqsReplaySender.class);

    /** The group of a FIFO replay whose original group is unknown. */
    public static final String FALLBACK_GROUP = "redrive-replay";

    private final SqsClient sqs;
    private final QueueDirectory queues;

    public SqsReplaySender(SqsClient sqs, QueueDirectory queues) {
        this.sqs = sqs;
        this.queues = queues;
    }

    @Override
    public List<String> sendAll(String sourceQueue, List<Outgoing> messages) {
        List<String> ids = new ArrayList<>();
        for (int from = 0; from < messages.size(); from += 10) {
            List<Outgoing> chunk = messages.subList(from, Math.min(messages.size(), from + 10));
            List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int i = 0; i < chunk.size(); i++) {
                Outgoing m = chunk.get(i);
                SendMessageBatchRequestEntry.Builder e = SendMessageBatchRequestEntry.builder()
                        .id("r" + i)
                        .messageBody(m.body())
                        .messageAttributes(values(m.attributes()));
                if (!m.delay().isZero() && takesDelays(sourceQueue)) {
                    e.delaySeconds(delaySeconds(m.delay()));
                }
                if (sourceQueue.endsWith(".fifo")) {
                    e.messageGroupId(groupOf(m.attributes()))
                            .messageDeduplicationId(text(m.attributes(), ReplayMarker.ATTRIBUTE, "r" + i)
                                    .replace(':', '-'));
                }
                entries.add(e.build());
            }
            String[] chunkIds = new String[chunk.size()];
            try {
                SendMessageBatchResponse r = sqs.sendMessageBatch(
                        b -> b.queueUrl(queues.url(sourceQueue)).entries(entries));
                r.successful().forEach(ok -> chunkIds[Integer.parseInt(ok.id().substring(1))] = ok.messageId());
            } catch (SdkException e) {
                // every id stays null: those replays are retried by the next attempt
            }
            ids.addAll(Arrays.asList(chunkIds));
        }
        return ids;
    }

    @Override
    public boolean takesDelays(String sourceQueue) {
        return !sourceQueue.endsWith(".fifo");
    }

    /**
     * A delay as SQS takes it: whole seconds, rounded down (a replay becomes visible within the second of its slot,
     * so no second holds more than the lane's rate, and a replay due within the first second goes at once), at most
     * 15 minutes.
     */
    static int delaySeconds(Duration delay) {
        long seconds = delay.toMillis() / 1000;
        return (int) Math.min(900, Math.max(0, seconds));
    }

    private static String groupOf(Map<String, MessageAttribute> attributes) {
        String group = text(attributes, SqsDeadLetterSource.GROUP_ATTRIBUTE, null);
        return group == null || group.isBlank() ? FALLBACK_GROUP : group;
    }

    private static String text(Map<String, MessageAttribute> attributes, String name, String otherwise) {
        MessageAttribute a = attributes.get(name);
        return a == null || a.stringValue() == null ? otherwise : a.stringValue();
    }

    /**
     * The message attributes to send: the original's, each with its type (String, Number, Binary, custom types), and
     * the replay marker; Redrive's carrier of the message group is not one of them. A claim check's marker kept as text
     * (by a ledger from before attributes kept their types) goes as the Number the Extended Client Library sends, so a
     * consumer on that library reads the replay as one. A message that already has SQS's ten attributes has no room
     * for the replay marker: it goes without it, exactly the original (should it dead-letter again, it is quarantined
     * as a new dead letter rather than reopening its record); a probe's ticket goes first (its consumer is then refused
     * until the replay's probe lease lapses, and probes after it).
     */
    static Map<String, MessageAttributeValue> values(Map<String, MessageAttribute> attributes) {
        Map<String, MessageAttributeValue> values = new HashMap<>();
        attributes.forEach((k, v) -> {
            if (SqsDeadLetterSource.GROUP_ATTRIBUTE.equals(k)) {
                return;
            }
            boolean claimCheckMarkerAsText =
                    ClaimCheckPointer.marks(List.of(k)) && v.dataType().equals("String");
            values.put(
                    k,
                    SqsAttributes.toSqs(
                            claimCheckMarkerAsText
                                    ? new MessageAttribute(ClaimCheckPointer.SIZE_DATA_TYPE, v.stringValue(), null)
                                    : v));
        });
        if (values.size() > SqsAttributes.MAX_PER_MESSAGE && values.remove(ProbeTicket.ATTRIBUTE) != null) {
            LOG.infof(
                    "replay %s goes without its probe ticket: the original has SQS's %d attributes already (the "
                            + "consumer probes once the replay's lease lapses)",
                    Printable.escape(text(attributes, ReplayMarker.ATTRIBUTE, "")), SqsAttributes.MAX_PER_MESSAGE);
        }
        if (values.size() > SqsAttributes.MAX_PER_MESSAGE && values.remove(ReplayMarker.ATTRIBUTE) != null) {
            LOG.infof(
                    "replay %s goes without its marker: the original has SQS's %d attributes already",
                    Printable.escape(text(attributes, ReplayMarker.ATTRIBUTE, "")), SqsAttributes.MAX_PER_MESSAGE);
        }
        return values;
    }

    @Override
    public String send(String sourceQueue, String body, Map<String, MessageAttribute> attributes) {
        Map<String, MessageAttributeValue> values = values(attributes);
        SendMessageRequest.Builder request = SendMessageRequest.builder()
                .queueUrl(queues.url(sourceQueue))
                .messageBody(body)
                .messageAttributes(values);
        if (sourceQueue.endsWith(".fifo")) {
            String marker = text(attributes, ReplayMarker.ATTRIBUTE, Integer.toHexString(body.hashCode()));
            request.messageGroupId(groupOf(attributes)).messageDeduplicationId(marker.replace(':', '-'));
        }
        return sqs.sendMessage(request.build()).messageId();
    }
}
