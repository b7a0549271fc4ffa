package dev.redrive.functions.testing;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Does what Lambda's SQS event source mapping does, for one batch: receive up to ten messages, hand them to the
 * handler as an {@link SQSEvent}, delete the ones not reported in {@code batchItemFailures}.
 */
public final class SqsPollerForTests {

    private final SqsClient sqs;
    private final String queueUrl;
    private final String queueArn;

    public SqsPollerForTests(SqsClient sqs, String queueUrl, String queueArn) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.queueArn = queueArn;
    }

    /** Polls once (long poll up to {@code waitSeconds}); returns how many messages were handed over. */
    public int pollOnce(RequestHandler<SQSEvent, SQSBatchResponse> handler, int waitSeconds) {
        List<Message> received = sqs.receiveMessage(b -> b.queueUrl(queueUrl)
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(waitSeconds)
                        .messageAttributeNames("All")
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                .messages();
        if (received.isEmpty()) {
            return 0;
        }
        SQSBatchResponse response = handler.handleRequest(event(received), null);
        Set<String> failed = new HashSet<>();
        response.getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier()));
        List<DeleteMessageBatchRequestEntry> deletes = new ArrayList<>();
        for (Message m : received) {
            if (!failed.contains(m.messageId())) {
                deletes.add(DeleteMessageBatchRequestEntry.builder()
                        .id("d" + deletes.size())
                        .receiptHandle(m.receiptHandle())
                        .build());
            }
        }
        if (!deletes.isEmpty()) {
            sqs.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(deletes));
        }
        return received.size();
    }

    public SQSEvent event(List<Message> messages) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (Message m : messages) {
            records.add(record(m, queueArn));
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        return event;
    }

    public static SQSEvent.SQSMessage record(Message m, String queueArn) {
        SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
        r.setMessageId(m.messageId());
        r.setReceiptHandle(m.receiptHandle());
        r.setBody(m.body());
        r.setEventSourceArn(queueArn);
        r.setEventSource("aws:sqs");
        Map<String, String> attributes = new HashMap<>();
        m.attributes().forEach((k, v) -> attributes.put(k.toString(), v));
        r.setAttributes(attributes);
        Map<String, SQSEvent.MessageAttribute> messageAttributes = new HashMap<>();
        m.messageAttributes().forEach((k, v) -> {
            SQSEvent.MessageAttribute a = new SQSEvent.MessageAttribute();
            a.setDataType(v.dataType());
            a.setStringValue(v.stringValue());
            if (v.binaryValue() != null) {
                a.setBinaryValue(v.binaryValue().asByteBuffer());
            }
            messageAttributes.put(k, a);
        });
        r.setMessageAttributes(messageAttributes);
        return r;
    }
}
