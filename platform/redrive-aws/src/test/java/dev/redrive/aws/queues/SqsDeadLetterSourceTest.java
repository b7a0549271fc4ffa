package dev.redrive.aws.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.redrive.aws.claims.DynamoDbDeadLetterNotes;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.sweeper.DeadLetterSourceContract;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The dead-letter source contract on SQS (fresh queues per test; a received letter stays invisible for two seconds,
 * which {@link #receiveAfterTheVisibilityTimeout} waits out), and the decoding of the failure metadata a consumer
 * attaches. The source receives without a long poll ({@link SqsDeadLetterSource#withReceiveWait} 0): the contract reads
 * each queue until a receive comes back empty, and with the sweep's 1-s long poll every empty answer cost a second.
 */
class SqsDeadLetterSourceTest extends DeadLetterSourceContract {

    static final int VISIBILITY_SECONDS = 2;

    private final LocalAws aws = LocalAws.shared();
    private final QueueDirectory directory = new QueueDirectory(aws.sqs(), Optional.empty());

    /** As the sweeper is wired: dead letters without metadata are looked up in the notes (here, none are kept). */
    private static String claims;

    @BeforeAll
    static void claimsTable() {
        claims = "source-claims-" + UUID.randomUUID().toString().substring(0, 8);
        LocalResources.createTable(LocalAws.shared().dynamoDb(), claims);
    }

    @Override
    protected DeadLetterSource newSource() {
        return new SqsDeadLetterSource(
                        aws.sqs(),
                        directory,
                        VISIBILITY_SECONDS,
                        new DynamoDbDeadLetterNotes(aws.dynamoDb(), claims),
                        Clock.systemUTC())
                .withReceiveWait(0);
    }

    @Override
    protected String newDeadLetterQueue() {
        String name = "dead-letters-" + UUID.randomUUID().toString().substring(0, 8);
        aws.sqs().createQueue(b -> b.queueName(name));
        return name;
    }

    @Override
    protected void arrive(
            String queue, String body, Map<String, MessageAttribute> attributes, Optional<ReplayMarker> marker) {
        Map<String, MessageAttributeValue> values = new HashMap<>(SqsAttributes.toSqs(attributes));
        marker.ifPresent(m -> values.put(ReplayMarker.ATTRIBUTE, text(m.encode())));
        aws.sqs()
                .sendMessage(
                        b -> b.queueUrl(directory.url(queue)).messageBody(body).messageAttributes(values));
    }

    @Override
    protected List<ArrivedDeadLetter> receiveAfterTheVisibilityTimeout(String queue) {
        AtomicReference<List<ArrivedDeadLetter>> back = new AtomicReference<>(List.of());
        await().atMost(Duration.ofSeconds(VISIBILITY_SECONDS * 6L))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    back.set(source.receive(queue));
                    return !back.get().isEmpty();
                });
        return back.get();
    }

    @Test
    void aReceiveWaitOutsideWhatSqsLongPollsIsRefused() {
        SqsDeadLetterSource source = new SqsDeadLetterSource(aws.sqs(), directory, VISIBILITY_SECONDS);
        assertThatThrownBy(() -> source.withReceiveWait(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1 s");
        assertThatThrownBy(() -> source.withReceiveWait(21))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 to 20 s");
    }

    private static MessageAttributeValue text(String value) {
        return MessageAttributeValue.builder()
                .dataType("String")
                .stringValue(value)
                .build();
    }

    @Test
    void theFailureAConsumerAttachedIsDecodedAndLeavesTheAttributes() {
        String queue = newDeadLetterQueue();
        String metadata = "{\"consumer\":\"email\",\"idempotencyKey\":\"email#e-1\",\"sourceQueue\":\"orders\","
                + "\"sourceMessageId\":\"m-source\",\"failureClass\":\"PERMANENT\",\"errorType\":\"Rule\","
                + "\"reason\":\"refused\",\"attempt\":4,\"firstFailedAtMillis\":1000,\"lastFailedAtMillis\":2000}";
        arrive(
                queue,
                "{}",
                Map.of(
                        "trace",
                        MessageAttribute.ofString("t"),
                        DeadLetterMetadata.ATTRIBUTE,
                        MessageAttribute.ofString(metadata)),
                Optional.empty());

        ArrivedDeadLetter letter = source.receive(queue).get(0);

        assertThat(letter.attributes()).isEqualTo(Map.of("trace", MessageAttribute.ofString("t")));
        assertThat(letter.receiveCount())
                .as("the attempt the consumer recorded")
                .isEqualTo(4);
        assertThat(letter.sourceMessageId()).isEqualTo("m-source");
        ArrivedDeadLetter.AttachedFailure attached = letter.attached().orElseThrow();
        assertThat(attached.consumer()).isEqualTo("email");
        assertThat(attached.idempotencyKey()).isEqualTo("email#e-1");
        assertThat(attached.failure().failureClass()).isEqualTo(FailureClass.PERMANENT);
        assertThat(attached.failure().lastFailedAt().toEpochMilli()).isEqualTo(2000);
    }
}
