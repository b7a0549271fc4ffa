package dev.redrive.testing.localaws;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Lambda's SQS event source, by hand, for a test that calls a handler as Lambda calls it: receives from a queue as the
 * event source mapping does (up to ten at a time, every system attribute and message attribute), and builds the {@link
 * SQSEvent} Lambda hands the function from what was received: message id, receipt handle, body and its MD5, the system
 * attributes ({@code ApproximateReceiveCount}, {@code MessageGroupId}, ...), the message attributes with their types,
 * {@code aws:sqs} and the queue's ARN.
 *
 * <pre>
 * aws.sqs().sendMessage(b -&gt; b.queueUrl(orders.url()).messageBody(order));
 * SQSBatchResponse response = handler.handleRequest(SqsEventSource.receive(aws.sqs(), orders, 1), null);
 * </pre>
 *
 * A receive counts toward the queue's {@code maxReceiveCount}, as the mapping's does; messages it received and the
 * handler reported failed come back after their visibility timeout (or the delay the handler set).
 */
public final class SqsEventSource {

    /** How long {@link #receive} waits for the messages it was asked for before it fails. */
    public static final Duration WAIT = Duration.ofSeconds(10);

    private SqsEventSource() {}

    /** Receives {@code count} messages from {@code queue} and builds the event Lambda would hand the function. */
    public static SQSEvent receive(SqsClient sqs, QueuePair queue, int count) {
        return event(receiveMessages(sqs, queue.url(), count, WAIT), queue.arn());
    }

    /**
     * Receives exactly {@code count} messages from {@code queueUrl}, waiting at most {@code wait} for them.
     *
     * @throws AssertionError when fewer arrive in time (it names how many, of how many, from which queue); those
     *     received come back after their visibility timeout
     */
    public static List<Message> receiveMessages(SqsClient sqs, String queueUrl, int count, Duration wait) {
        if (count < 1 || count > 10_000) {
            throw new IllegalArgumentException("count must be 1 to 10000: " + count);
        }
        List<Message> received = new ArrayList<>();
        long deadline = System.nanoTime() + wait.toNanos();
        while (received.size() < count) {
            long leftNanos = deadline - System.nanoTime();
            if (leftNanos <= 0) {
                throw new AssertionError("received " + received.size() + " of the " + count
                        + " messages asked for from " + queueUrl + " within " + wait.toSeconds() + " s");
            }
            int asked = Math.min(10, count - received.size());
            received.addAll(sqs.receiveMessage(b -> b.queueUrl(queueUrl)
                            .maxNumberOfMessages(asked)
                            .waitTimeSeconds((int) Math.min(2, TimeUnit.NANOSECONDS.toSeconds(leftNanos)))
                            .messageAttributeNames("All")
                            .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                    .messages());
        }
        return received;
    }

    /** The event Lambda's SQS event source builds from {@code messages}, received from the queue {@code queueArn}. */
    public static SQSEvent event(List<Message> messages, String queueArn) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (Message m : messages) {
            SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
            r.setMessageId(m.messageId());
            r.setReceiptHandle(m.receiptHandle());
            r.setBody(m.body());
            r.setMd5OfBody(m.md5OfBody());
            r.setMd5OfMessageAttributes(m.md5OfMessageAttributes());
            r.setEventSource("aws:sqs");
            r.setEventSourceArn(queueArn);
            r.setAwsRegion(region(queueArn));
            Map<String, String> attributes = new HashMap<>();
            m.attributes().forEach((k, v) -> attributes.put(k.toString(), v));
            r.setAttributes(attributes);
            Map<String, SQSEvent.MessageAttribute> messageAttributes = new HashMap<>();
            m.messageAttributes().forEach((name, value) -> messageAttributes.put(name, attribute(value)));
            r.setMessageAttributes(messageAttributes);
            records.add(r);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        return event;
    }

    private static SQSEvent.MessageAttribute attribute(MessageAttributeValue value) {
        SQSEvent.MessageAttribute a = new SQSEvent.MessageAttribute();
        a.setDataType(value.dataType());
        a.setStringValue(value.stringValue());
        if (value.binaryValue() != null) {
            a.setBinaryValue(ByteBuffer.wrap(value.binaryValue().asByteArray()));
        }
        return a;
    }

    /** {@code arn:aws:sqs:<region>:<account>:<name>}'s region, or null for something else. */
    private static String region(String queueArn) {
        String[] parts = queueArn == null ? new String[0] : queueArn.split(":", 6);
        return parts.length == 6 ? parts[3] : null;
    }
}
