package dev.redrive.functions.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.functions.checkout.OrderEvents;
import dev.redrive.functions.testing.ConsumerRig;
import dev.redrive.functions.testing.CountingConsumer;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/** The AWS calls each path costs, counted by an SDK interceptor: these counts are the design, so they are tested. */
@LocalAwsTest
class ApiCallCountTest {

    ConsumerRig rig;
    final CountingConsumer external = new CountingConsumer();

    @BeforeEach
    void rig() {
        rig = new ConsumerRig(LocalAws.shared(), 10);
    }

    @AfterEach
    void close() {
        rig.close();
    }

    @Test
    void aNewMessageWithAnExternalEffectCostsTwoWritesAndNoRead() {
        rig.clients.reset();
        rig.process(external, List.of(rig.message("{\"key\":\"k-" + UUID.randomUUID() + "\"}")));

        assertThat(rig.clients.dynamoDbCalls().snapshot()).isEqualTo(Map.of("PutItem", 1, "UpdateItem", 1));
        assertThat(rig.clients.sqsCalls().total()).isZero();
    }

    @Test
    void aCompletedDuplicateCostsOneRefusedConditionalWrite() {
        String body = "{\"key\":\"dup-" + UUID.randomUUID() + "\"}";
        rig.process(external, List.of(rig.message(body)));
        rig.clients.reset();

        BatchReport report = rig.process(external, List.of(rig.message(body)));

        assertThat(report.outcomes()).singleElement().isInstanceOf(MessageOutcome.Duplicate.class);
        assertThat(rig.clients.dynamoDbCalls().snapshot()).isEqualTo(Map.of("PutItem!", 1));
    }

    @Test
    void aNewMessageWithADynamoDbEffectCostsOneTransaction() {
        rig.clients.reset();
        rig.process(
                rig.revenueConsumer(),
                List.of(rig.message(OrderEvents.v2("evt-" + UUID.randomUUID(), "o", 10, "EUR"))));

        assertThat(rig.clients.dynamoDbCalls().snapshot()).isEqualTo(Map.of("TransactWriteItems", 1));
    }

    @Test
    void aSuccessfulBatchMakesNoSqsCallAndAFailingOneAtMostOneVisibilityBatch() {
        List<IncomingMessage> clean = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            clean.add(rig.message("{\"key\":\"ok-" + UUID.randomUUID() + "\"}"));
        }
        rig.clients.reset();
        rig.process(external, clean);
        assertThat(rig.clients.sqsCalls().total()).isZero();

        rig.directory.url(rig.queue.arn()); // resolved once per container, then cached
        List<IncomingMessage> mixed = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String key = (i % 3 == 0 ? "always-fail-" : "ok-") + UUID.randomUUID();
            mixed.add(received(key));
        }
        rig.clients.reset();
        BatchReport report = rig.process(external, mixed);

        assertThat(report.failedMessageIds()).hasSize(4);
        assertThat(rig.clients.sqsCalls().snapshot()).isEqualTo(Map.of("ChangeMessageVisibilityBatch", 1));
    }

    /** A message really received from the rig's queue, so its visibility can be changed. */
    private IncomingMessage received(String key) {
        rig.aws.sqs().sendMessage(b -> b.queueUrl(rig.queue.url()).messageBody("{\"key\":\"" + key + "\"}"));
        Message m = rig.aws
                .sqs()
                .receiveMessage(b -> b.queueUrl(rig.queue.url()).waitTimeSeconds(1))
                .messages()
                .get(0);
        return new IncomingMessage(m.messageId(), m.receiptHandle(), m.body(), Map.of(), 1, rig.queue.arn(), null);
    }
}
