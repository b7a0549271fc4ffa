package dev.redrive.lambda;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageAttribute;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns Lambda's SQS event into the core's messages, tolerating whatever a record lacks: a record without a message id
 * is left out and counted ({@link #unidentified}), a missing receive count is 1, only a FIFO queue's message group is
 * an order to keep, and every attribute is kept with its type (a dead letter carries them unchanged).
 */
public final class SqsRecords {

    private SqsRecords() {}

    /** The records that carry a message id, as the core's messages, in the event's order. */
    public static List<IncomingMessage> messages(SQSEvent event) {
        List<IncomingMessage> messages = new ArrayList<>();
        if (event == null || event.getRecords() == null) {
            return messages;
        }
        for (SQSEvent.SQSMessage r : event.getRecords()) {
            if (!identified(r)) {
                continue; // nothing to report it under: see unidentified()
            }
            Map<String, String> system = r.getAttributes() == null ? Map.of() : r.getAttributes();
            messages.add(new IncomingMessage(
                    r.getMessageId(),
                    r.getReceiptHandle(),
                    r.getBody(),
                    stringAttributes(r),
                    receiveCount(system.get("ApproximateReceiveCount")),
                    r.getEventSourceArn(),
                    fifoGroup(r.getEventSourceArn(), system.get("MessageGroupId")),
                    typedAttributes(r)));
        }
        return messages;
    }

    /**
     * How many records carry no message id (null, or blank). Lambda never sends one, but a record that is not
     * processed must not be acknowledged either: the handler then reports the whole batch failed (an empty
     * {@code itemIdentifier}), and the records that were processed come back as duplicates.
     */
    public static int unidentified(SQSEvent event) {
        if (event == null || event.getRecords() == null) {
            return 0;
        }
        return (int) event.getRecords().stream().filter(r -> !identified(r)).count();
    }

    private static boolean identified(SQSEvent.SQSMessage r) {
        return r != null && r.getMessageId() != null && !r.getMessageId().isBlank();
    }

    private static Map<String, String> stringAttributes(SQSEvent.SQSMessage r) {
        Map<String, String> attributes = new HashMap<>();
        if (r.getMessageAttributes() != null) {
            r.getMessageAttributes().forEach((name, value) -> {
                if (value != null && value.getStringValue() != null) {
                    attributes.put(name, value.getStringValue());
                }
            });
        }
        return attributes;
    }

    /** Every attribute as delivered, with its type: a dead letter carries them unchanged (Binary included). */
    private static Map<String, MessageAttribute> typedAttributes(SQSEvent.SQSMessage r) {
        Map<String, MessageAttribute> attributes = new HashMap<>();
        if (r.getMessageAttributes() != null) {
            r.getMessageAttributes().forEach((name, value) -> {
                if (value == null || value.getDataType() == null) {
                    return;
                }
                if (value.getBinaryValue() != null) {
                    ByteBuffer b = value.getBinaryValue().duplicate();
                    byte[] bytes = new byte[b.remaining()];
                    b.get(bytes);
                    attributes.put(name, new MessageAttribute(value.getDataType(), null, bytes));
                } else if (value.getStringValue() != null) {
                    attributes.put(name, new MessageAttribute(value.getDataType(), value.getStringValue(), null));
                }
            });
        }
        return attributes;
    }

    /** The {@code ApproximateReceiveCount} attribute: at least 1, and 1 when absent or not a number. */
    public static int receiveCount(String value) {
        try {
            return value == null ? 1 : Math.max(1, Integer.parseInt(value.strip()));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /**
     * The message group to keep order in: only a FIFO queue's. A standard queue may carry message groups too (fair
     * queues), for fairness between tenants, never as an order to keep.
     */
    private static String fifoGroup(String sourceArn, String group) {
        boolean fifo = sourceArn != null && sourceArn.endsWith(".fifo");
        return !fifo || group == null || group.isBlank() ? null : group;
    }
}
