package dev.redrive.core.consumer;

import java.util.Map;
import java.util.Objects;

/**
 * One delivery from a queue, free of any AWS type.
 *
 * @param messageId      the SQS message id of this delivery (changes on redrive and replay: never the key)
 * @param receiptHandle  the handle to delete it or change its visibility
 * @param body           the raw body
 * @param attributes     the string-valued message attributes (String and Number types), what consumers read
 * @param delivered      every message attribute as delivered, typed (Binary included): what a dead letter carries
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
        String messageGroupId,
        Map<String, MessageAttribute> delivered) {

    /** A delivery whose attributes are all of type String. */
    public IncomingMessage(
            String messageId,
            String receiptHandle,
            String body,
            Map<String, String> attributes,
            int receiveCount,
            String sourceQueue,
            String messageGroupId) {
        this(messageId, receiptHandle, body, attributes, receiveCount, sourceQueue, messageGroupId, null);
    }

    public IncomingMessage {
        Objects.requireNonNull(messageId, "messageId");
        body = body == null ? "" : body;
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        delivered = Map.copyOf(delivered == null ? MessageAttribute.ofStrings(attributes) : delivered);
        receiveCount = Math.max(1, receiveCount);
        sourceQueue = sourceQueue == null ? "" : sourceQueue;
    }

    /** This delivery with {@code newBody} in place of its body (a claim check's payload, read through its pointer). */
    public IncomingMessage withBody(String newBody) {
        return new IncomingMessage(
                messageId, receiptHandle, newBody, attributes, receiveCount, sourceQueue, messageGroupId, delivered);
    }

    public boolean fifo() {
        return messageGroupId != null;
    }
}
