package dev.redrive.aws.queues;

import dev.redrive.core.consumer.MessageAttribute;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Message attributes between SQS and Redrive, each with its type as sent: {@code String}, {@code Number} and
 * {@code Binary}, with any custom suffix ({@code Number.float}, {@code Binary.png}). Nothing is re-typed or dropped, so
 * a dead letter, its quarantine record and its replay carry the original's attributes.
 */
final class SqsAttributes {

    /** SQS's limit of message attributes on one message. */
    static final int MAX_PER_MESSAGE = 10;

    private SqsAttributes() {}

    static MessageAttributeValue toSqs(MessageAttribute a) {
        MessageAttributeValue.Builder v = MessageAttributeValue.builder().dataType(a.dataType());
        if (a.binaryValue() != null) {
            v.binaryValue(SdkBytes.fromByteArray(a.binaryValue()));
        } else {
            v.stringValue(a.stringValue());
        }
        return v.build();
    }

    static MessageAttribute fromSqs(MessageAttributeValue v) {
        return new MessageAttribute(
                v.dataType(),
                v.stringValue(),
                v.binaryValue() == null ? null : v.binaryValue().asByteArray());
    }

    static Map<String, MessageAttributeValue> toSqs(Map<String, MessageAttribute> attributes) {
        Map<String, MessageAttributeValue> values = new LinkedHashMap<>();
        attributes.forEach((k, v) -> values.put(k, toSqs(v)));
        return values;
    }

    static Map<String, MessageAttribute> fromSqs(Map<String, MessageAttributeValue> values) {
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>();
        values.forEach((k, v) -> attributes.put(k, fromSqs(v)));
        return attributes;
    }
}
