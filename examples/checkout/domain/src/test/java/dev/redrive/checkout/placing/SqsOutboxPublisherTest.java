package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/** The publisher on local SQS: every subscriber queue gets the payload as written, with what it is and its place. */
class SqsOutboxPublisherTest {

    final LocalAws aws = LocalAws.shared();

    @Test
    void everySubscriberQueueGetsTheEventWithItsTypeOrderAndSequence() {
        LocalResources.QueuePair email = LocalResources.createQueuePair(aws, "pub-email-" + UUID.randomUUID(), 3, 30);
        LocalResources.QueuePair revenue = LocalResources.createQueuePair(aws, "pub-rev-" + UUID.randomUUID(), 3, 30);
        OutboxEvent event = new OutboxEvent(
                "o-1",
                1,
                "evt-o-1-1",
                "OrderPlaced",
                "{\"eventType\":\"OrderPlaced\"}",
                Instant.parse("2026-12-04T10:00:00Z"));

        new SqsOutboxPublisher(aws.sqs(), List.of(email.url(), revenue.url())).publish(event);

        for (String url : List.of(email.url(), revenue.url())) {
            List<Message> got = aws.sqs()
                    .receiveMessage(
                            b -> b.queueUrl(url).messageAttributeNames("All").maxNumberOfMessages(10))
                    .messages();
            assertThat(got).singleElement().satisfies(m -> {
                assertThat(m.body()).isEqualTo(event.payload());
                assertThat(m.messageAttributes()
                                .get(SqsOutboxPublisher.EVENT_TYPE)
                                .stringValue())
                        .isEqualTo("OrderPlaced");
                assertThat(m.messageAttributes()
                                .get(SqsOutboxPublisher.ORDER_ID)
                                .stringValue())
                        .isEqualTo("o-1");
                assertThat(m.messageAttributes()
                                .get(SqsOutboxPublisher.SEQUENCE)
                                .dataType())
                        .isEqualTo("Number");
                assertThat(m.messageAttributes()
                                .get(SqsOutboxPublisher.SEQUENCE)
                                .stringValue())
                        .isEqualTo("1");
            });
        }
    }

    @Test
    void aQueueThatIsGoneFailsThePublish() {
        LocalResources.QueuePair email = LocalResources.createQueuePair(aws, "pub-gone-" + UUID.randomUUID(), 3, 30);
        String gone = email.url().replace("pub-gone-", "pub-missing-");
        OutboxEvent event = new OutboxEvent("o-2", 1, "evt-o-2-1", "OrderPlaced", "{}", Instant.now());

        assertThatThrownBy(() -> new SqsOutboxPublisher(aws.sqs(), List.of(email.url(), gone)).publish(event))
                .isInstanceOf(QueueDoesNotExistException.class);
    }

    @Test
    void aBatchGoesToEveryQueueInOneCallEachAndCountsUpToTheFirstEntryARefused() {
        LocalResources.QueuePair email = LocalResources.createQueuePair(aws, "batch-email-" + UUID.randomUUID(), 3, 30);
        LocalResources.QueuePair revenue = LocalResources.createQueuePair(aws, "batch-rev-" + UUID.randomUUID(), 3, 30);
        SqsOutboxPublisher publisher = new SqsOutboxPublisher(aws.sqs(), List.of(email.url(), revenue.url()));
        List<OutboxEvent> ten = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ten.add(new OutboxEvent(
                    "o-" + i, 1, "evt-o-" + i + "-1", "OrderPlaced", "{\"n\":" + i + "}", Instant.now()));
        }

        OutboxPublisher.Published all = publisher.publishAll(ten);

        assertThat(all).isEqualTo(new OutboxPublisher.Published(10, null));
        for (String url : List.of(email.url(), revenue.url())) {
            List<String> bodies = new java.util.ArrayList<>();
            List<Message> page;
            do {
                page = aws.sqs()
                        .receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10))
                        .messages();
                page.forEach(m -> bodies.add(m.body()));
            } while (!page.isEmpty());
            assertThat(bodies)
                    .containsExactlyInAnyOrderElementsOf(
                            ten.stream().map(OutboxEvent::payload).toList());
        }

        List<OutboxEvent> withABadOne = new java.util.ArrayList<>(ten.subList(0, 5));
        withABadOne.set(
                3, new OutboxEvent("o-bad", 1, "evt-bad", "OrderPlaced", "{\"bad\":\"\u0000\"}", Instant.now()));
        OutboxPublisher.Published partly = publisher.publishAll(withABadOne);

        assertThat(partly.count()).as("the events before the refused one").isEqualTo(3);
        assertThat(partly.failure()).contains("entry 3");
    }
}
