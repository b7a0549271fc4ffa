package dev.redrive.aws.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.localstack.LocalAws;
import dev.redrive.localstack.LocalAwsTest;
import dev.redrive.localstack.LocalResources;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * A dead letter, from the consumer's gateway to the sweeper's source and back to its queue as a replay, on local SQS:
 * the sweeper reads the failure of a message that had no room for it, and a replay is the original, every attribute
 * with its type.
 */
@LocalAwsTest
class DeadLetterFidelityOnSqsTest {

    static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");
    final LocalAws aws = LocalAws.shared();
    final QueueDirectory directory = new QueueDirectory(aws.sqs(), Optional.empty());
    LocalResources.QueuePair pair;
    String source;
    String dlq;

    @BeforeEach
    void queues() {
        source = "fidelity-" + UUID.randomUUID().toString().substring(0, 8);
        pair = LocalResources.createQueuePair(aws, source, 5, 30);
        dlq = QueueAddress.nameOf(pair.dlqUrl());
    }

    static DeadLetter letter(
            String id, String body, Map<String, MessageAttribute> attributes, FailureClass c, String errorType) {
        Map<String, String> strings = new LinkedHashMap<>();
        attributes.forEach((k, v) -> {
            if (!v.binary()) {
                strings.put(k, v.stringValue());
            }
        });
        IncomingMessage m = new IncomingMessage(id, "rh-" + id, body, strings, 2, "fidelity", null, attributes);
        FailureRecord failure =
                new FailureRecord(Classification.of(c, errorType, "refused: " + errorType), 2, AT, AT, "fidelity");
        return new DeadLetter(
                m, "confirmation-email", c == FailureClass.SCHEMA ? null : "confirmation-email#e-1", failure);
    }

    static Map<String, MessageAttribute> ten() {
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            attributes.put("attr-" + i, MessageAttribute.ofString("v-" + i));
        }
        return attributes;
    }

    static Map<String, MessageAttribute> everyType() {
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>();
        attributes.put("trace", MessageAttribute.ofString("t-1"));
        attributes.put("price", new MessageAttribute("Number", "12.50", null));
        attributes.put("ratio", new MessageAttribute("Number.float", "0.25", null));
        attributes.put("blob", new MessageAttribute("Binary", null, new byte[] {0, 1, 2, (byte) 0xff}));
        attributes.put("image", new MessageAttribute("Binary.png", null, new byte[] {(byte) 0x89, 'P', 'N', 'G'}));
        return attributes;
    }

    @Test
    void aReplayIsTheOriginalEveryAttributeWithItsType() {
        Map<String, MessageAttribute> original = everyType();
        assertThat(new SqsQueueGateway(aws.sqs(), directory)
                        .deadLetter(
                                source,
                                List.of(letter(
                                        "m-1", "{\"eventId\":\"e-1\"}", original, FailureClass.PERMANENT, "Rule"))))
                .isEmpty();
        ArrivedDeadLetter l =
                new SqsDeadLetterSource(aws.sqs(), directory, 30).receive(dlq).get(0);

        new SqsReplaySender(aws.sqs(), directory).send(source, l.body(), l.attributes());

        Message replay = aws.sqs()
                .receiveMessage(b -> b.queueUrl(pair.url()).waitTimeSeconds(1).messageAttributeNames("All"))
                .messages()
                .get(0);
        assertThat(replay.body()).isEqualTo("{\"eventId\":\"e-1\"}");
        Map<String, MessageAttribute> received = new LinkedHashMap<>();
        replay.messageAttributes().forEach((k, v) -> received.put(k, typed(v)));
        assertThat(received).isEqualTo(original);
    }

    /**
     * SQS refuses an eleventh attribute, so a replay of a message that has ten goes without its marker: exactly the
     * original, batched or alone (it was refused whole before, and stayed unsent at every attempt).
     */
    @Test
    void aReplayOfAMessageWithTenAttributesIsTheOriginalWithoutItsMarker() {
        Map<String, MessageAttribute> withMarker = new LinkedHashMap<>(ten());
        withMarker.put(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-1:1"));
        assertThatThrownBy(() -> aws.sqs()
                        .sendMessage(b -> b.queueUrl(pair.url())
                                .messageBody("{}")
                                .messageAttributes(SqsAttributes.toSqs(withMarker))))
                .as("SQS takes ten attributes at most")
                .isInstanceOf(SqsException.class);
        SqsReplaySender sender = new SqsReplaySender(aws.sqs(), directory);

        assertThat(sender.send(source, "{\"n\":1}", withMarker)).isNotNull();
        assertThat(sender.sendAll(source, List.of(new ReplaySender.Outgoing("{\"n\":2}", withMarker))))
                .doesNotContainNull();

        List<Message> replays = aws.sqs()
                .receiveMessage(b -> b.queueUrl(pair.url())
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(1)
                        .messageAttributeNames("All"))
                .messages();
        assertThat(replays).hasSize(2);
        for (Message m : replays) {
            assertThat(SqsAttributes.fromSqs(m.messageAttributes())).isEqualTo(ten());
        }
    }

    static MessageAttribute typed(MessageAttributeValue v) {
        return new MessageAttribute(
                v.dataType(),
                v.stringValue(),
                v.binaryValue() == null ? null : v.binaryValue().asByteArray());
    }
}
