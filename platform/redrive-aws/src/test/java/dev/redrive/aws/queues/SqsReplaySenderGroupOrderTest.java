package dev.redrive.aws.queues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** FIFO dead letters replayed on local SQS go back to their own message group, in order. */
@LocalAwsTest
class SqsReplaySenderGroupOrderTest {

    final LocalAws aws = LocalAws.shared();
    String source;
    String deadLetters;
    QueueDirectory directory;

    @BeforeEach
    void fifoQueues() {
        String name = "orders-" + UUID.randomUUID().toString().substring(0, 8);
        source = name + ".fifo";
        deadLetters = name + "-dlq.fifo";
        for (String q : List.of(source, deadLetters)) {
            aws.sqs().createQueue(b -> b.queueName(q).attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true")));
        }
        directory = new QueueDirectory(aws.sqs(), Optional.empty());
    }

    @Test
    void aFifoReplayGoesBackToItsOriginalMessageGroupInOrder() {
        for (String body : List.of("a1", "a2", "a3")) {
            aws.sqs()
                    .sendMessage(b -> b.queueUrl(directory.url(deadLetters))
                            .messageBody(body)
                            .messageGroupId("customer-7")
                            .messageDeduplicationId(body));
        }
        aws.sqs()
                .sendMessage(b -> b.queueUrl(directory.url(deadLetters))
                        .messageBody("b1")
                        .messageGroupId("customer-9")
                        .messageDeduplicationId("b1"));
        List<ArrivedDeadLetter> arrived = new ArrayList<>();
        SqsDeadLetterSource dlq = new SqsDeadLetterSource(aws.sqs(), directory, 30);
        for (int i = 0; i < 5 && arrived.size() < 4; i++) {
            arrived.addAll(dlq.receive(deadLetters));
        }

        SqsReplaySender sender = new SqsReplaySender(aws.sqs(), directory);
        List<ReplaySender.Outgoing> replays = new ArrayList<>();
        for (int i = 0; i < arrived.size(); i++) {
            Map<String, MessageAttribute> attributes =
                    new HashMap<>(arrived.get(i).attributes());
            attributes.put(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString(new ReplayMarker("q-" + i, 1).encode()));
            replays.add(new ReplaySender.Outgoing(arrived.get(i).body(), attributes));
        }
        sender.sendAll(source, replays.subList(0, 3));
        sender.send(source, replays.get(3).body(), replays.get(3).attributes());

        List<Message> back = receiveAll(source, 4);
        assertThat(back)
                .extracting(Message::body, m -> m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID))
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("a1", "customer-7"),
                        org.assertj.core.groups.Tuple.tuple("a2", "customer-7"),
                        org.assertj.core.groups.Tuple.tuple("a3", "customer-7"),
                        org.assertj.core.groups.Tuple.tuple("b1", "customer-9"));
        assertThat(back.stream()
                        .filter(m -> m.body().startsWith("a"))
                        .map(Message::body)
                        .toList())
                .containsExactly("a1", "a2", "a3");
        assertThat(back)
                .allSatisfy(m -> assertThat(m.messageAttributes())
                        .containsKey(ReplayMarker.ATTRIBUTE)
                        .doesNotContainKey(SqsDeadLetterSource.GROUP_ATTRIBUTE));
    }

    private List<Message> receiveAll(String queue, int expected) {
        List<Message> all = new ArrayList<>();
        for (int i = 0; i < 10 && all.size() < expected; i++) {
            List<Message> got = aws.sqs()
                    .receiveMessage(b -> b.queueUrl(directory.url(queue))
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(1)
                            .messageAttributeNames("All")
                            .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID))
                    .messages();
            all.addAll(got);
            for (Message m : got) {
                aws.sqs().deleteMessage(b -> b.queueUrl(directory.url(queue)).receiptHandle(m.receiptHandle()));
            }
        }
        return all;
    }
}
