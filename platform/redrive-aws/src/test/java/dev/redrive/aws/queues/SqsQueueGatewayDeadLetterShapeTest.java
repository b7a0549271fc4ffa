package dev.redrive.aws.queues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.aws.payload.S3ClaimChecks;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Dead letters of every size and shape reach the dead-letter queue with their reason, on local AWS: bad messages that
 * together pass a batch call's 1 MiB, attributes of every type, bodies that cannot go inline.
 */
@LocalAwsTest
class SqsQueueGatewayDeadLetterShapeTest {

    static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");
    final LocalAws aws = LocalAws.shared();
    LocalResources.QueuePair pair;
    String source;

    @BeforeEach
    void queues() {
        source = "shape-" + UUID.randomUUID().toString().substring(0, 8);
        pair = LocalResources.createQueuePair(aws, source, 5, 30);
    }

    SqsQueueGateway gateway() {
        return new SqsQueueGateway(aws.sqs(), new QueueDirectory(aws.sqs(), Optional.empty()));
    }

    static DeadLetter letter(String id, String body, Map<String, MessageAttribute> attributes) {
        Map<String, String> strings = new LinkedHashMap<>();
        attributes.forEach((k, v) -> {
            if (!v.binary()) {
                strings.put(k, v.stringValue());
            }
        });
        IncomingMessage m = new IncomingMessage(id, "rh-" + id, body, strings, 1, "shape", null, attributes);
        FailureRecord failure = new FailureRecord(
                Classification.of(FailureClass.SCHEMA, "TooLarge", "the message body is larger than 262144 bytes"),
                1,
                AT,
                AT,
                "shape");
        return new DeadLetter(m, "confirmation-email", null, failure);
    }

    @Test
    void twoBadMessagesOf600KbInOneBatchBothReachTheDlqWithTheirReason() {
        String a = "a".repeat(600 * 1024);
        String b = "b".repeat(600 * 1024);

        Set<String> failed =
                gateway().deadLetter(source, List.of(letter("m-a", a, Map.of()), letter("m-b", b, Map.of())));

        assertThat(failed).isEmpty();
        List<Message> dead = receiveAll(pair.dlqUrl());
        assertThat(dead).extracting(Message::body).containsExactlyInAnyOrder(a, b);
        for (Message m : dead) {
            assertThat(metadata(m).reason()).isEqualTo("the message body is larger than 262144 bytes");
            assertThat(metadata(m).errorType()).isEqualTo("TooLarge");
        }
    }

    @Test
    void binaryAndNumberAttributesArriveUnchanged() {
        byte[] bytes = {0, 1, 2, (byte) 0xff};
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>();
        attributes.put("trace", MessageAttribute.ofString("t-1"));
        attributes.put("price", new MessageAttribute("Number", "12.50", null));
        attributes.put("weight", new MessageAttribute("Number.kg", "3", null));
        attributes.put("blob", new MessageAttribute("Binary", null, bytes));

        Set<String> failed = gateway().deadLetter(source, List.of(letter("m-1", "{}", attributes)));

        assertThat(failed).isEmpty();
        Message m = receiveAll(pair.dlqUrl()).get(0);
        Map<String, MessageAttributeValue> got = m.messageAttributes();
        assertThat(got.get("trace").dataType()).isEqualTo("String");
        assertThat(got.get("price").dataType()).isEqualTo("Number");
        assertThat(got.get("price").stringValue()).isEqualTo("12.50");
        assertThat(got.get("weight").dataType()).isEqualTo("Number.kg");
        assertThat(got.get("blob").dataType()).isEqualTo("Binary");
        assertThat(got.get("blob").binaryValue().asByteArray()).isEqualTo(bytes);
        assertThat(metadata(m).errorType()).isEqualTo("TooLarge");
    }

    @Test
    void aBodyThatCannotGoInlineGoesByClaimCheckWithItsReason() {
        String bucket = "dead-letter-payloads-" + UUID.randomUUID().toString().substring(0, 8);
        aws.s3().createBucket(b -> b.bucket(bucket));
        SqsQueueGateway gateway = new SqsQueueGateway(
                aws.sqs(), new QueueDirectory(aws.sqs(), Optional.empty()), new S3ClaimChecks(aws.s3(), bucket));
        String atTheLimit = "x".repeat(1024 * 1024 - 10); // fits SQS alone, not with its failure metadata
        String tooLong = "y".repeat(1024 * 1024 + 100 * 1024); // 1.1 MiB: never sendable inline
        String refusedCharacter = "{\"eventId\":\"e\uFFFE1\"}"; // outside the characters SQS accepts

        Set<String> failed = gateway.deadLetter(
                source,
                List.of(
                        letter("m-limit", atTheLimit, Map.of()),
                        letter("m-long", tooLong, Map.of()),
                        letter("m-char", refusedCharacter, Map.of()),
                        letter("m-empty", "", Map.of())));

        assertThat(failed).isEmpty();
        List<String> payloads = new ArrayList<>();
        for (Message m : receiveAll(pair.dlqUrl())) {
            assertThat(m.messageAttributes()).containsKey(ClaimCheckPointer.SIZE_ATTRIBUTE);
            assertThat(m.messageAttributes()
                            .get(ClaimCheckPointer.SIZE_ATTRIBUTE)
                            .dataType())
                    .isEqualTo("Number");
            assertThat(metadata(m).errorType()).isEqualTo("TooLarge");
            ClaimCheckPointer pointer = ClaimCheckPointer.parse(m.body()).orElseThrow();
            payloads.add(aws.s3()
                    .getObjectAsBytes(b -> b.bucket(pointer.bucket()).key(pointer.key()))
                    .asString(StandardCharsets.UTF_8));
        }
        assertThat(payloads).containsExactlyInAnyOrder(atTheLimit, tooLong, refusedCharacter, "");
    }

    @Test
    void aMessageThatCannotBeDeadLetteredAtAllIsReportedFailedNeverDropped() {
        String tooLong = "y".repeat(1024 * 1024 + 100 * 1024);

        Set<String> failed = gateway()
                .deadLetter(source, List.of(letter("m-long", tooLong, Map.of()), letter("m-ok", "{}", Map.of())));

        assertThat(failed).containsExactly("m-long");
        assertThat(receiveAll(pair.dlqUrl())).extracting(Message::body).containsExactly("{}");
    }

    static DeadLetterMetadata metadata(Message m) {
        return DeadLetterMetadata.parse(
                        m.messageAttributes().get(DeadLetterMetadata.ATTRIBUTE).stringValue())
                .orElseThrow();
    }

    private List<Message> receiveAll(String url) {
        List<Message> all = new ArrayList<>();
        List<Message> batch;
        do {
            batch = aws.sqs()
                    .receiveMessage(b -> b.queueUrl(url)
                            .maxNumberOfMessages(10)
                            .visibilityTimeout(600)
                            .waitTimeSeconds(0)
                            .messageAttributeNames("All"))
                    .messages();
            all.addAll(batch);
        } while (!batch.isEmpty());
        return all;
    }
}
