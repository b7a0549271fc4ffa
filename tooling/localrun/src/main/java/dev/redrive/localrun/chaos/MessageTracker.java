package dev.redrive.localrun.chaos;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The messages of each queue that are not done yet, and since when, as the run sees them go by: sent by a producer or
 * a replay, received and deleted by an event-source mapping, sent to a dead-letter queue by a consumer, moved there by
 * the redrive policy (seen when the sweeper receives it: a moved message keeps its id), deleted by the sweeper. SQS
 * has no "age of the oldest message" attribute (CloudWatch computes it), so the report's age lines come from here.
 *
 * <p>A message the redrive policy moved counts in its source queue until the sweeper receives it from the DLQ.
 */
public final class MessageTracker {

    private final Map<String, Map<String, Long>> waitingSince = new ConcurrentHashMap<>();
    private final Map<String, String> queueOfId = new ConcurrentHashMap<>();
    private final Map<String, String> idOfReceipt = new ConcurrentHashMap<>();

    private Map<String, Long> queue(String url) {
        return waitingSince.computeIfAbsent(url, u -> new ConcurrentHashMap<>());
    }

    /** Sent to {@code queueUrl} at {@code atMillis}. */
    public void sent(String queueUrl, String messageId, long atMillis) {
        queue(queueUrl).putIfAbsent(messageId, atMillis);
        queueOfId.put(messageId, queueUrl);
    }

    /** An event-source mapping received these from {@code queueUrl} (messages not seen sent are added). */
    public void received(String queueUrl, List<Message> batch) {
        for (Message m : batch) {
            String sent = m.attributes().get(MessageSystemAttributeName.SENT_TIMESTAMP);
            long at = sent == null ? System.currentTimeMillis() : Long.parseLong(sent);
            if (!queueUrl.equals(queueOfId.get(m.messageId()))) {
                sent(queueUrl, m.messageId(), at);
            }
        }
    }

    /** Deleted from {@code queueUrl}: done with. */
    public void deleted(String queueUrl, List<String> messageIds) {
        Map<String, Long> q = queue(queueUrl);
        messageIds.forEach(id -> {
            q.remove(id);
            queueOfId.remove(id, queueUrl);
        });
    }

    /** The sweeper received {@code messageId} from a dead-letter queue (with the receipt it will delete it by). */
    public void inDeadLetterQueue(String dlqUrl, String messageId, String receiptHandle, long firstSeenMillis) {
        String before = queueOfId.get(messageId);
        if (before != null && !before.equals(dlqUrl)) {
            queue(before).remove(messageId); // moved by the redrive policy: it left its source queue
        }
        sent(dlqUrl, messageId, firstSeenMillis);
        if (receiptHandle != null) {
            idOfReceipt.put(receiptHandle, messageId);
        }
    }

    /** The sweeper deleted these receipts from a dead-letter queue. */
    public void deletedFromDeadLetterQueue(String dlqUrl, List<String> receiptHandles) {
        for (String handle : receiptHandles) {
            String id = idOfReceipt.remove(handle);
            if (id != null) {
                deleted(dlqUrl, List.of(id));
            }
        }
    }

    /** How long the oldest message not yet done has waited in {@code queueUrl}, in milliseconds (0 when none). */
    public long oldestAgeMillis(String queueUrl, long nowMillis) {
        long oldest = queue(queueUrl).values().stream()
                .mapToLong(Long::longValue)
                .min()
                .orElse(nowMillis);
        return Math.max(0, nowMillis - oldest);
    }

    /** Messages not yet done in {@code queueUrl}, as seen here. */
    public int waiting(String queueUrl) {
        return queue(queueUrl).size();
    }
}
