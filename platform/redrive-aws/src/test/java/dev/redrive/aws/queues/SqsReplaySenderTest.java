package dev.redrive.aws.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.replay.ReplaySenderContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The replay sender contract on SQS (fresh queues per test), and what it promises on FIFO queues and failures. */
class SqsReplaySenderTest extends ReplaySenderContract {

    private final LocalAws aws = LocalAws.shared();
    private final QueueDirectory directory = new QueueDirectory(aws.sqs(), Optional.empty());

    @Override
    protected ReplaySender newSender() {
        return new SqsReplaySender(aws.sqs(), directory);
    }

    @Override
    protected String newQueue() {
        String name = "replays-" + UUID.randomUUID().toString().substring(0, 8);
        aws.sqs().createQueue(b -> b.queueName(name));
        return name;
    }

    @Override
    protected List<Received> received(String queue) {
        String url = directory.url(queue);
        List<Received> all = new ArrayList<>();
        List<Message> batch;
        do {
            batch = aws.sqs()
                    .receiveMessage(b -> b.queueUrl(url)
                            .maxNumberOfMessages(10)
                            .visibilityTimeout(600)
                            .waitTimeSeconds(0)
                            .messageAttributeNames("All"))
                    .messages();
            for (Message m : batch) {
                all.add(new Received(m.messageId(), m.body(), SqsAttributes.fromSqs(m.messageAttributes())));
            }
        } while (!batch.isEmpty());
        return all;
    }

    @Test
    void onAFifoQueueTheSameReplaySentTwiceArrivesOnce() {
        String name = "replays-" + UUID.randomUUID().toString().substring(0, 8) + ".fifo";
        aws.sqs().createQueue(b -> b.queueName(name).attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true")));
        Map<String, MessageAttribute> marker = Map.of(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-7:2"));

        sender.send(name, "{\"orderId\":\"o-7\"}", marker);
        sender.sendAll(name, List.of(new ReplaySender.Outgoing("{\"orderId\":\"o-7\"}", marker)));
        sender.send(name, "{\"orderId\":\"o-8\"}", Map.of(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-8:1")));

        assertThat(received(name))
                .extracting(Received::body)
                .containsExactly("{\"orderId\":\"o-7\"}", "{\"orderId\":\"o-8\"}");
    }

    @Test
    void aBatchSqsRefusesGivesNoIdsAndThrowsNothing() {
        String missing = "never-created-" + UUID.randomUUID().toString().substring(0, 8);

        List<String> ids = sender.sendAll(
                missing, List.of(new ReplaySender.Outgoing("a", Map.of()), new ReplaySender.Outgoing("b", Map.of())));

        assertThat(ids).containsExactly(null, null);
    }

    @Test
    void aPacedReplayIsInvisibleUntilItsDelayHasPassed() {
        String queue = newQueue();
        List<String> ids = sender.sendAll(
                queue,
                List.of(
                        new ReplaySender.Outgoing("now", Map.of()),
                        new ReplaySender.Outgoing("later", Map.of(), Duration.ofMillis(2_200))));
        long sent = System.nanoTime();

        assertThat(ids).doesNotContainNull();
        assertThat(received(queue)).extracting(Received::body).containsExactly("now");
        List<String> later = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    received(queue).forEach(r -> later.add(r.body()));
                    return !later.isEmpty();
                });
        assertThat(later).containsExactly("later");
        assertThat(Duration.ofNanos(System.nanoTime() - sent))
                .as("2.2 s is SQS's whole 2 s")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1_900));
    }

    @Test
    void aDelayIsRoundedDownToTheSecondAndCappedAtSqssFifteenMinutes() {
        assertThat(SqsReplaySender.delaySeconds(Duration.ofMillis(999)))
                .as("due within the first second: at once")
                .isZero();
        assertThat(SqsReplaySender.delaySeconds(Duration.ofMillis(1_000))).isEqualTo(1);
        assertThat(SqsReplaySender.delaySeconds(Duration.ofMillis(1_999))).isEqualTo(1);
        assertThat(SqsReplaySender.delaySeconds(Duration.ofMinutes(20))).isEqualTo(900);
        assertThat(sender.takesDelays("orders")).isTrue();
        assertThat(sender.takesDelays("orders.fifo")).isFalse();
    }
}
