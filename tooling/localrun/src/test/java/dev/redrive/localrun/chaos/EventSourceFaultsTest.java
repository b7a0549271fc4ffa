package dev.redrive.localrun.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.redrive.localrun.eventsource.AwsTrafficProxy;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * SQS's 500s on the event-source mapping's receives and deletes, through the mapping's own proxy: each reaches the
 * mapping once (its client does not retry), nothing is served or deleted by a refused call, a batch whose delete was
 * refused comes back, and every injection is counted at its step.
 */
class EventSourceFaultsTest {

    private final LocalAws aws = LocalAws.shared();
    private AwsTrafficProxy proxy;
    private SqsClient mapping;
    private String queue;

    private FaultInjector injector(double rate) {
        FaultInjector faults = new FaultInjector(FaultPlan.none(7).with(FaultKind.SQS_INTERNAL_ERROR, rate));
        faults.enabled(true);
        return faults;
    }

    @BeforeEach
    void queue() throws Exception {
        proxy = new AwsTrafficProxy("sqs", aws.sqsEndpoint());
        mapping = aws.sqsThrough(proxy.endpoint());
        queue = aws.sqs()
                .createQueue(b -> b.queueName("esm-faults-" + UUID.randomUUID())
                        .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1")))
                .queueUrl();
    }

    @AfterEach
    void close() {
        mapping.close();
        proxy.close();
        aws.sqs().deleteQueue(b -> b.queueUrl(queue));
    }

    @Test
    void aRefusedReceiveServesNothingAndIsNotRetried() {
        FaultInjector faults = injector(1.0);
        proxy.hook(new EventSourceFaults("confirmation-email", faults));
        aws.sqs().sendMessage(b -> b.queueUrl(queue).messageBody("order"));

        assertThatThrownBy(() -> mapping.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10)))
                .isInstanceOfSatisfying(SqsException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(500);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InternalError");
                });

        // one attempt, answered with an error (the proxy counts errors as "<operation>!")
        assertThat(proxy.calls()).containsExactlyEntriesOf(Map.of("ReceiveMessage!", 1L));
        assertThat(faults.counts().get(FaultKind.SQS_INTERNAL_ERROR))
                .containsExactlyEntriesOf(Map.of("event-source:ReceiveMessage", 1L));
        // nothing was received: the message is visible at once
        assertThat(aws.sqs().receiveMessage(b -> b.queueUrl(queue)).messages()).hasSize(1);
    }

    @Test
    void aBatchWhoseDeleteIsRefusedComesBack() {
        FaultInjector faults = injector(1.0);
        aws.sqs().sendMessage(b -> b.queueUrl(queue).messageBody("order"));
        List<Message> got = mapping.receiveMessage(b -> b.queueUrl(queue).waitTimeSeconds(1))
                .messages();
        assertThat(got).hasSize(1);
        proxy.hook(new EventSourceFaults("confirmation-email", faults));

        assertThatThrownBy(() -> mapping.deleteMessageBatch(b -> b.queueUrl(queue)
                        .entries(e -> e.id("d0").receiptHandle(got.get(0).receiptHandle()))))
                .isInstanceOf(SqsException.class);

        assertThat(proxy.calls()).containsEntry("DeleteMessageBatch!", 1L).doesNotContainKey("DeleteMessageBatch");
        assertThat(faults.total(FaultKind.SQS_INTERNAL_ERROR)).isEqualTo(1);
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(aws.sqs()
                                .receiveMessage(b -> b.queueUrl(queue).messageSystemAttributeNamesWithStrings("All"))
                                .messages())
                        .singleElement()
                        .satisfies(m -> assertThat(m.body()).isEqualTo("order")));
    }

    @Test
    void otherCallsPassAndARateOfZeroNeverStrikes() {
        FaultInjector faults = injector(0.0);
        proxy.hook(new EventSourceFaults("confirmation-email", faults));
        mapping.sendMessage(b -> b.queueUrl(queue).messageBody("order"));
        for (int i = 0; i < 20; i++) {
            mapping.receiveMessage(b -> b.queueUrl(queue).visibilityTimeout(0));
        }
        assertThat(faults.total(FaultKind.SQS_INTERNAL_ERROR)).isZero();
        assertThat(proxy.calls()).containsEntry("ReceiveMessage", 20L).containsEntry("SendMessage", 1L);
    }
}
