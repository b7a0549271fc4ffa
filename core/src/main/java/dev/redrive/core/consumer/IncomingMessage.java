package dev.redrive.core.consumer;

import java.util.Map;
import java.util.Objects;

/**
 * One delivery from a queue, free of any AWS type.
 *
 * @param messageId      the SQS message id of this delivery (changes on redrive and replay: never the key)
 * @param receiptHandle  the handle to delete it or change its visibility
 * @param body           the raw body
 * @param attributes     the string-valued message attributes
 * @param receiveCount   SQS ApproximateReceiveCount: 1 on the first delivery
 * @param sourceQueue    the queue it came from (ARN or name)
 * @param messageGroupId the FIFO message group, or null on a standard queue
 */
public record IncomingMessage(
        String messageId,
        String receiptHandle,
        String body,
        Map<String, String> attributes,
        int receiveCount,
        String sourceQueue,
        String messageGroupId) {

    public IncomingMessage {
        Objects.requireNonNull(messageId, "messageId");
        body = body == null ? "" : body;
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        receiveCount = Math.max(1, receiveCount);
        sourceQueue = sourceQueue == null ? "" : sourceQueue;
    }

    public boolean fifo() {
        return messageGroupId != null;
    }
}
