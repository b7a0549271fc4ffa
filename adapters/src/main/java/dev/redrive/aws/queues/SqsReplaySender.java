package dev.redrive.aws.queues;

import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
                            .messageDeduplicationId(m.attributes()
                                    .getOrDefault(ReplayMarker.ATTRIBUTE, "r" + i)
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

    private static String groupOf(Map<String, String> attributes) {
        String group = attributes.get(SqsDeadLetterSource.GROUP_ATTRIBUTE);
        return group == null || group.isBlank() ? FALLBACK_GROUP : group;
    }

    /**
     * The message attributes to send: Redrive's carrier of the message group is not one of them. A claim check's marker
     * goes as the Number the Extended Client Library sends, so a consumer on that library reads the replay as one.
     */
    static Map<String, MessageAttributeValue> values(Map<String, String> attributes) {
        Map<String, MessageAttributeValue> values = new HashMap<>();
        attributes.forEach((k, v) -> {
            if (!SqsDeadLetterSource.GROUP_ATTRIBUTE.equals(k)) {
                values.put(
                        k,
                        MessageAttributeValue.builder()
                                .dataType(
                                        ClaimCheckPointer.marks(List.of(k))
                                                ? ClaimCheckPointer.SIZE_DATA_TYPE
                                                : "String")
                                .stringValue(v)
                                .build());
            }
        });
        return values;
    }

    @Override
    public String send(String sourceQueue, String body, Map<String, String> attributes) {
        Map<String, MessageAttributeValue> values = values(attributes);
        SendMessageRequest.Builder request = SendMessageRequest.builder()
                .queueUrl(queues.url(sourceQueue))
                .messageBody(body)
                .messageAttributes(values);
        if (sourceQueue.endsWith(".fifo")) {
            String marker = attributes.getOrDefault(ReplayMarker.ATTRIBUTE, Integer.toHexString(body.hashCode()));
            request.messageGroupId(groupOf(attributes)).messageDeduplicationId(marker.replace(':', '-'));
        }
        return sqs.sendMessage(request.build()).messageId();
    }
}
