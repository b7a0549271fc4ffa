package dev.redrive.aws.queues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.QueueGateway;
import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.consumer.QueueGateway.VisibilityChange;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.testing.consumer.QueueGatewayContract;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/** The queue gateway contract on SQS (fresh queues per test), and what it does when SQS refuses. */
class SqsQueueGatewayTest extends QueueGatewayContract {

    private final LocalAws aws = LocalAws.shared();
    private final Map<String, LocalResources.QueuePair> pairs = new HashMap<>();

    @Override
    protected QueueGateway newGateway() {
        return new SqsQueueGateway(aws.sqs(), new QueueDirectory(aws.sqs(), Optional.empty()));
    }

    @Override
    protected String newSourceQueue() {
        String name = "gateway-" + UUID.randomUUID().toString().substring(0, 8);
        pairs.put(name, LocalResources.createQueuePair(aws, name, 5, 30));
        return name;
    }

    @Override
    protected List<IncomingMessage> deliver(String queue, int n) {
        String url = pairs.get(queue).url();
        for (int i = 0; i < n; i++) {
            String body = "body-" + i;
            String trace = "t-" + i;
            aws.sqs()
                    .sendMessage(
                            b -> b.queueUrl(url).messageBody(body).messageAttributes(Map.of("trace", text(trace))));
        }
        List<IncomingMessage> delivered = new ArrayList<>();
        for (Message m : receiveAll(url)) {
            Map<String, String> attributes = new HashMap<>();
            m.messageAttributes().forEach((k, v) -> attributes.put(k, v.stringValue()));
            delivered.add(new IncomingMessage(
                    m.messageId(),
                    m.receiptHandle(),
                    m.body(),
                    attributes,
                    Integer.parseInt(m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)),
                    queue,
                    null));
        }
        assertThat(delivered).hasSize(n);
        return delivered;
    }

    @Override
    protected Set<String> receivableNow(String queue) {
        Set<String> bodies = new HashSet<>();
        receiveAll(pairs.get(queue).url()).forEach(m -> bodies.add(m.body()));
        return bodies;
    }

    @Override
    protected List<Arrived> deadLettersOf(String sourceQueue) {
        List<Arrived> arrived = new ArrayList<>();
        for (Message m : receiveAll(pairs.get(sourceQueue).dlqUrl())) {
            Map<String, String> attributes = new HashMap<>();
            m.messageAttributes().forEach((k, v) -> attributes.put(k, v.stringValue()));
            DeadLetterMetadata md = DeadLetterMetadata.parse(attributes.remove(DeadLetterMetadata.ATTRIBUTE))
                    .orElseThrow(() -> new AssertionError("no failure metadata on " + m.body()));
            arrived.add(new Arrived(
                    m.body(),
                    attributes,
                    md.consumer(),
                    md.idempotencyKey(),
                    md.failure().failureClass(),
                    md.errorType()));
        }
        return arrived;
    }

    /** Every message receivable now, each received once (for ten minutes). */
    private List<Message> receiveAll(String url) {
        List<Message> all = new ArrayList<>();
        List<Message> batch;
        do {
            batch = aws.sqs()
                    .receiveMessage(b -> b.queueUrl(url)
                            .maxNumberOfMessages(10)
                            .visibilityTimeout(600)
                            .waitTimeSeconds(0)
                            .messageAttributeNames("All")
                            .messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
                    .messages();
            all.addAll(batch);
        } while (!batch.isEmpty());
        return all;
    }

    private static MessageAttributeValue text(String value) {
        return MessageAttributeValue.builder()
                .dataType("String")
                .stringValue(value)
                .build();
    }

    @Test
    void aSourceWithoutADeadLetterQueueKeepsItsMessagesAndSaysSo() {
        String name = "no-dlq-" + UUID.randomUUID().toString().substring(0, 8);
        aws.sqs().createQueue(b -> b.queueName(name));
        IncomingMessage m = new IncomingMessage("m-1", "rh", "{}", Map.of(), 1, name, null);
        FailureRecord failure = new FailureRecord(
                Classification.of(FailureClass.SCHEMA, "NotJson", "x"), 1, FAILED_AT, FAILED_AT, name);

        Set<String> failed = gateway.deadLetter(name, List.of(new DeadLetter(m, "email", null, failure)));

        assertThat(failed).containsExactly("m-1");
    }

    @Test
    void aChangeSqsRefusesIsReportedForThatMessageOnly() {
        String queue = newSourceQueue();
        List<IncomingMessage> delivered = deliver(queue, 2);

        Set<String> failed = gateway.changeVisibility(
                queue,
                List.of(
                        new VisibilityChange(
                                delivered.get(0).messageId(), delivered.get(0).receiptHandle(), 0),
                        new VisibilityChange("not-a-message", "not-a-receipt-handle", 0)));

        assertThat(failed).containsExactly("not-a-message");
        assertThat(receivableNow(queue)).containsExactly(delivered.get(0).body());
    }
}
