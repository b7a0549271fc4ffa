package com.example.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import org.junit.jupiter.api.Test;

// docs/testing.md, "Local AWS in your tests".
@LocalAwsTest(resetBeforeEach = true)
class MyQueueTest {

    @Test
    void aMessageSentIsReceived(LocalAws aws) {
        LocalResources.QueuePair orders = LocalResources.createQueuePair(aws, "orders", 3, 30);
        aws.sqs().sendMessage(b -> b.queueUrl(orders.url()).messageBody("{\"orderId\":\"o-1\"}"));

        var received = aws.sqs().receiveMessage(b -> b.queueUrl(orders.url()).waitTimeSeconds(1));

        assertThat(received.messages())
                .singleElement()
                .satisfies(m -> assertThat(m.body()).contains("o-1"));
    }
}
