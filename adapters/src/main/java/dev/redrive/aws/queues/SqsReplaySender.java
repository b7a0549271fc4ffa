package dev.redrive.aws.queues;

import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/** Sends replays back to their source queue on SQS (FIFO queues: the replay's own group and deduplication id). */
public final class SqsReplaySender implements ReplaySender {

    private final SqsClient sqs;
    private final QueueDirectory queues;

    public SqsReplaySender(SqsClient sqs, QueueDirectory queues) {
        this.sqs = sqs;
        this.queues = queues;
    }

    @Override
    public String send(String sourceQueue, String body, Map<String, String> attributes) {
        Map<String, MessageAttributeValue> values = new HashMap<>();
        attributes.forEach((k, v) -> values.put(k, MessageAttributeValue.builder().dataType("String").stringValue(v)
                .build()));
        SendMessageRequest.Builder request = SendMessageRequest.builder().queueUrl(queues.url(sourceQueue))
                .messageBody(body).messageAttributes(values);
        if (sourceQueue.endsWith(".fifo")) {
            String marker = attributes.getOrDefault(ReplayMarker.ATTRIBUTE, Integer.toHexString(body.hashCode()));
            request.messageGroupId("redrive-replay").messageDeduplicationId(marker.replace(':', '-'));
        }
        return sqs.sendMessage(request.build()).messageId();
    }
}
