package dev.redrive.aws.queues;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Finds queue URLs from the ARNs the event source gives, and a source queue's dead-letter queue from its redrive
 * policy, once per container (the answers are cached): successful batches make no SQS call at all.
 */
public final class QueueDirectory {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SqsClient sqs;
    private final Map<String, String> urls = new ConcurrentHashMap<>();
    private final Map<String, String> deadLetterUrls = new ConcurrentHashMap<>();

    /**
     * @param configuredDeadLetterQueueUrl the dead-letter queue set by the IaC for this function, if any (saves the
     *                                     lookup; used for every source queue of the function)
     */
    public QueueDirectory(SqsClient sqs, Optional<String> configuredDeadLetterQueueUrl) {
        this.sqs = sqs;
        configuredDeadLetterQueueUrl.filter(u -> !u.isBlank()).ifPresent(u -> deadLetterUrls.put("*", u));
    }

    /** Makes {@code url} known for {@code queue} (a name or an ARN), so it is never looked up. */
    public void register(String queue, String url) {
        urls.put(queue, url);
    }

    /** The URL of a queue given by ARN, URL or name. */
    public String url(String queue) {
        if (queue.startsWith("http://") || queue.startsWith("https://")) {
            return queue;
        }
        return urls.computeIfAbsent(queue, q -> {
            if (q.startsWith("arn:")) {
                QueueAddress a = QueueAddress.fromArn(q);
                return sqs.getQueueUrl(b -> b.queueName(a.name()).queueOwnerAWSAccountId(a.accountId()))
                        .queueUrl();
            }
            return sqs.getQueueUrl(b -> b.queueName(q)).queueUrl();
        });
    }

    /** The dead-letter queue URL of {@code sourceQueue}, from configuration or its redrive policy. */
    public String deadLetterUrl(String sourceQueue) {
        String configured = deadLetterUrls.get("*");
        if (configured != null) {
            return configured;
        }
        return deadLetterUrls.computeIfAbsent(sourceQueue, q -> {
            String policy = sqs.getQueueAttributes(
                            b -> b.queueUrl(url(q)).attributeNames(QueueAttributeName.REDRIVE_POLICY))
                    .attributes()
                    .get(QueueAttributeName.REDRIVE_POLICY);
            if (policy == null || policy.isBlank()) {
                throw new IllegalStateException("queue " + QueueAddress.nameOf(q) + " has no redrive policy, so it "
                        + "has no dead-letter queue: give it one in the IaC (every Redrive source queue needs one)");
            }
            try {
                JsonNode target = JSON.readTree(policy).get("deadLetterTargetArn");
                if (target == null || target.asText().isBlank()) {
                    throw new IllegalStateException("redrive policy of " + q + " names no deadLetterTargetArn");
                }
                return url(target.asText());
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("redrive policy of " + q + " is not JSON", e);
            }
        });
    }
}
