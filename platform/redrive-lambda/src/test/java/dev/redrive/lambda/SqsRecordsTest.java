package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageAttribute;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqsRecordsTest {

    @Test
    void onlyAFifoQueueOrdersByMessageGroup() {
        IncomingMessage fair = only(record("arn:aws:sqs:eu-west-1:123456789012:orders", "tenant-7"));
        IncomingMessage fifo = only(record("arn:aws:sqs:eu-west-1:123456789012:orders.fifo", "customer-7"));

        assertThat(fair.messageGroupId())
                .as("a standard queue's message group is for fairness only, never an order to keep")
                .isNull();
        assertThat(fair.fifo()).isFalse();
        assertThat(fifo.messageGroupId()).isEqualTo("customer-7");
        assertThat(fifo.fifo()).isTrue();
    }

    @Test
    void everyAttributeIsKeptWithItsTypeForTheDeadLetterAndStringsAndNumbersForTheConsumer() {
        SQSEvent.SQSMessage r = record("arn:aws:sqs:eu-west-1:123456789012:orders", "g");
        SQSEvent.MessageAttribute number = new SQSEvent.MessageAttribute();
        number.setDataType("Number");
        number.setStringValue("12.50");
        SQSEvent.MessageAttribute binary = new SQSEvent.MessageAttribute();
        binary.setDataType("Binary");
        binary.setBinaryValue(java.nio.ByteBuffer.wrap(new byte[] {0, 1, (byte) 0xff}));
        r.setMessageAttributes(Map.of("price", number, "blob", binary));

        IncomingMessage m = only(r);

        assertThat(m.attributes()).containsExactly(Map.entry("price", "12.50"));
        assertThat(m.delivered())
                .containsEntry("price", new MessageAttribute("Number", "12.50", null))
                .containsEntry("blob", new MessageAttribute("Binary", null, new byte[] {0, 1, (byte) 0xff}));
    }

    private static IncomingMessage only(SQSEvent.SQSMessage r) {
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(r));
        List<IncomingMessage> messages = SqsRecords.messages(event);
        assertThat(messages).hasSize(1);
        return messages.get(0);
    }

    private static SQSEvent.SQSMessage record(String arn, String group) {
        SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
        r.setMessageId("m-1");
        r.setReceiptHandle("rh");
        r.setBody("{}");
        r.setEventSourceArn(arn);
        r.setAttributes(Map.of("ApproximateReceiveCount", "1", "MessageGroupId", group));
        return r;
    }
}
