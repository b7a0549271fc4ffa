package dev.redrive.testing.localaws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

@LocalAwsTest(resetBeforeEach = true)
class SqsEventSourceTest {

    @Test
    void theEventCarriesWhatLambdasEventSourceHandsAFunction(LocalAws aws) {
        QueuePair orders = LocalResources.createQueuePair(aws, "orders", 3, 30);
        aws.sqs()
                .sendMessage(b -> b.queueUrl(orders.url())
                        .messageBody("{\"orderId\":\"o-1\"}")
                        .messageAttributes(Map.of(
                                "trace",
                                        MessageAttributeValue.builder()
                                                .dataType("String")
                                                .stringValue("t-1")
                                                .build(),
                                "version",
                                        MessageAttributeValue.builder()
                                                .dataType("Number")
                                                .stringValue("2")
                                                .build(),
                                "raw",
                                        MessageAttributeValue.builder()
                                                .dataType("Binary")
                                                .binaryValue(SdkBytes.fromUtf8String("bytes"))
                                                .build())));
        aws.sqs().sendMessage(b -> b.queueUrl(orders.url()).messageBody("{\"orderId\":\"o-2\"}"));

        SQSEvent event = SqsEventSource.receive(aws.sqs(), orders, 2);

        assertThat(event.getRecords()).hasSize(2).allSatisfy(r -> {
            assertThat(r.getEventSource()).isEqualTo("aws:sqs");
            assertThat(r.getEventSourceArn()).isEqualTo(orders.arn());
            assertThat(r.getAwsRegion()).isEqualTo(orders.arn().split(":")[3]);
            assertThat(r.getMessageId()).isNotBlank();
            assertThat(r.getReceiptHandle()).isNotBlank();
            assertThat(r.getMd5OfBody()).hasSize(32);
            assertThat(r.getAttributes())
                    .containsEntry("ApproximateReceiveCount", "1")
                    .containsKey("SentTimestamp");
        });
        SQSEvent.SQSMessage first = event.getRecords().stream()
                .filter(r -> r.getBody().contains("o-1"))
                .findFirst()
                .orElseThrow();
        assertThat(first.getMessageAttributes()).containsOnlyKeys("trace", "version", "raw");
        assertThat(first.getMessageAttributes().get("trace").getStringValue()).isEqualTo("t-1");
        assertThat(first.getMessageAttributes().get("version").getDataType()).isEqualTo("Number");
        assertThat(first.getMessageAttributes().get("version").getStringValue()).isEqualTo("2");
        assertThat(StandardCharsets.UTF_8
                        .decode(first.getMessageAttributes().get("raw").getBinaryValue())
                        .toString())
                .isEqualTo("bytes");
    }

    @Test
    void aReceiveThatGetsFewerMessagesThanAskedSaysHowManyFromWhichQueue(LocalAws aws) {
        QueuePair orders = LocalResources.createQueuePair(aws, "orders", 3, 30);
        aws.sqs().sendMessage(b -> b.queueUrl(orders.url()).messageBody("only one"));

        assertThatThrownBy(() -> SqsEventSource.receiveMessages(aws.sqs(), orders.url(), 2, Duration.ofSeconds(2)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("received 1 of the 2 messages asked for from " + orders.url() + " within 2 s");
    }

    @Test
    void aSecondReceiveOfAMessageCountsTowardItsReceives(LocalAws aws) {
        QueuePair orders = LocalResources.createQueuePair(aws, "orders", 3, 1);
        aws.sqs().sendMessage(b -> b.queueUrl(orders.url()).messageBody("fails"));

        SqsEventSource.receive(aws.sqs(), orders, 1); // reported failed: back after the 1 s visibility timeout
        SQSEvent again = SqsEventSource.receive(aws.sqs(), orders, 1);

        assertThat(again.getRecords().get(0).getAttributes()).containsEntry("ApproximateReceiveCount", "2");
    }
}
