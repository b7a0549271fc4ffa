package dev.redrive.aws.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.aws.claims.DynamoDbDeadLetterNotes;
import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.aws.payload.S3ClaimChecks;
import dev.redrive.core.breaker.ProbeTicket;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.core.sweeper.DeadLetterNotes;
import dev.redrive.core.sweeper.DeadLetterNotes.NoteKey;
import dev.redrive.testing.Attributes;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
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

    String claims;
    String bucket;

    @BeforeEach
    void queues() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        source = "fidelity-" + suffix;
        pair = LocalResources.createQueuePair(aws, source, 5, 30);
        dlq = QueueAddress.nameOf(pair.dlqUrl());
        claims = "fidelity-claims-" + suffix;
        LocalResources.createTable(aws.dynamoDb(), claims);
        bucket = "fidelity-payloads-" + suffix;
        aws.s3().createBucket(b -> b.bucket(bucket));
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

    /** The consumers' gateway as deployed: claim checks in a bucket, notes in the claims table, kept for a day. */
    SqsQueueGateway gateway(DeadLetterNotes notes) {
        return new SqsQueueGateway(
                aws.sqs(),
                directory,
                new S3ClaimChecks(aws.s3(), bucket),
                new SqsQueueGateway.Notes(notes, Duration.ofDays(1), Clock.systemUTC()));
    }

    SqsDeadLetterSource source() {
        return new SqsDeadLetterSource(
                aws.sqs(), directory, 30, new DynamoDbDeadLetterNotes(aws.dynamoDb(), claims), Clock.systemUTC());
    }

    /**
     * SQS allows ten attributes a message: one that has ten already has no room for the failure attribute. Its consumer
     * keeps the failure in a note, and the sweeper's source finds it: before, both arrived without any failure (the
     * SCHEMA one, having no claim either, was quarantined as POISON NoFailureRecorded).
     */
    @Test
    void aDeadLetterWithTenAttributesReachesTheSweeperWithItsFailure() {
        assertThat(gateway(new DynamoDbDeadLetterNotes(aws.dynamoDb(), claims))
                        .deadLetter(
                                source,
                                List.of(
                                        letter(
                                                "m-schema",
                                                "not json",
                                                Attributes.ten(),
                                                FailureClass.SCHEMA,
                                                "NotJson"),
                                        letter(
                                                "m-permanent",
                                                "{\"eventId\":\"e-1\"}",
                                                Attributes.ten(),
                                                FailureClass.PERMANENT,
                                                "InvalidRecipient"))))
                .isEmpty();

        List<ArrivedDeadLetter> arrived = source().receive(dlq);
        assertThat(arrived).hasSize(2);
        for (ArrivedDeadLetter l : arrived) {
            assertThat(l.attributes()).as("the original ten, unchanged").isEqualTo(Attributes.ten());
            ArrivedDeadLetter.AttachedFailure attached =
                    l.attached().orElseThrow(() -> new AssertionError("no failure found for " + l.body()));
            assertThat(attached.consumer()).isEqualTo("confirmation-email");
            boolean schema = l.body().equals("not json");
            assertThat(attached.failure().failureClass() + ":"
                            + attached.failure().classification().errorType())
                    .isEqualTo(schema ? "SCHEMA:NotJson" : "PERMANENT:InvalidRecipient");
            assertThat(attached.failure().classification().reason())
                    .isEqualTo(schema ? "refused: NotJson" : "refused: InvalidRecipient");
            assertThat(attached.idempotencyKey()).isEqualTo(schema ? null : "confirmation-email#e-1");
            assertThat(l.receiveCount()).as("the attempt its consumer recorded").isEqualTo(2);
            assertThat(l.sourceMessageId())
                    .as("each copy is quarantined on its own")
                    .isEqualTo(l.messageId());
        }
    }

    /** Nine attributes and a body too long to go inline: the pointer's marker is the tenth, the failure goes aside. */
    @Test
    void aDeadLetterByClaimCheckWithNineAttributesReachesTheSweeperWithItsFailure() {
        Map<String, MessageAttribute> nine = new LinkedHashMap<>(Attributes.ten());
        nine.remove("attr-9");
        String tooLong = "y".repeat(1024 * 1024 + 100 * 1024);

        assertThat(gateway(new DynamoDbDeadLetterNotes(aws.dynamoDb(), claims))
                        .deadLetter(source, List.of(letter("m-long", tooLong, nine, FailureClass.SCHEMA, "TooLarge"))))
                .isEmpty();

        ArrivedDeadLetter l = source().receive(dlq).get(0);
        assertThat(l.attributes()).hasSize(10).containsKey(ClaimCheckPointer.SIZE_ATTRIBUTE);
        assertThat(ClaimCheckPointer.parse(l.body())).isPresent();
        assertThat(l.attached().orElseThrow().failure().classification().errorType())
                .isEqualTo("TooLarge");
    }

    /** A note that cannot be kept leaves its dead letter in the source (reported failed), never sent without it. */
    @Test
    void aDeadLetterWhoseNoteCannotBeKeptIsReportedFailedNotSentWithoutItsReason() {
        DeadLetterNotes down = new DeadLetterNotes() {
            @Override
            public void keep(NoteKey key, ArrivedDeadLetter.AttachedFailure failure, Instant expiresAt) {
                throw new IllegalStateException("the claims table is throttled (simulated)");
            }

            @Override
            public Optional<ArrivedDeadLetter.AttachedFailure> find(NoteKey key, Instant now) {
                return Optional.empty();
            }
        };

        Set<String> failed = gateway(down)
                .deadLetter(
                        source,
                        List.of(
                                letter("m-ten", "not json", Attributes.ten(), FailureClass.SCHEMA, "NotJson"),
                                letter("m-two", "not json", Attributes.everyType(), FailureClass.SCHEMA, "NotJson")));

        assertThat(failed).containsExactly("m-ten");
        assertThat(source().receive(dlq))
                .singleElement()
                .satisfies(l -> assertThat(l.attached()).isPresent());
    }

    /** The sweeper's cost: one read of the notes per received batch, none when every letter carries its metadata. */
    @Test
    void notesAreReadOncePerReceivedBatchAndOnlyForLettersWithoutMetadata() {
        List<Integer> reads = new ArrayList<>();
        DeadLetterNotes store = new DynamoDbDeadLetterNotes(aws.dynamoDb(), claims);
        DeadLetterNotes counted = new DeadLetterNotes() {
            @Override
            public void keep(NoteKey key, ArrivedDeadLetter.AttachedFailure failure, Instant expiresAt) {
                store.keep(key, failure, expiresAt);
            }

            @Override
            public Optional<ArrivedDeadLetter.AttachedFailure> find(NoteKey key, Instant now) {
                return store.find(key, now);
            }

            @Override
            public Map<NoteKey, ArrivedDeadLetter.AttachedFailure> findAll(Collection<NoteKey> keys, Instant now) {
                reads.add(keys.size());
                return store.findAll(keys, now);
            }
        };
        SqsDeadLetterSource counting = new SqsDeadLetterSource(aws.sqs(), directory, 30, counted, Clock.systemUTC());
        List<DeadLetter> withMetadata = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            withMetadata.add(
                    letter("m-" + i, "{\"n\":" + i + "}", Attributes.everyType(), FailureClass.SCHEMA, "NotJson"));
        }
        assertThat(gateway(counted).deadLetter(source, withMetadata)).isEmpty();
        assertThat(counting.receive(dlq))
                .hasSize(10)
                .allSatisfy(l -> assertThat(l.attached()).isPresent());
        assertThat(reads).as("every letter carried its metadata").isEmpty();

        for (int i = 0; i < 10; i++) { // as the redrive policy moves them: no metadata, no note
            int n = i;
            aws.sqs().sendMessage(b -> b.queueUrl(pair.dlqUrl()).messageBody("{\"moved\":" + n + "}"));
        }
        List<ArrivedDeadLetter> moved = new ArrayList<>();
        while (moved.size() < 10) {
            moved.addAll(counting.receive(dlq));
        }
        assertThat(moved).allSatisfy(l -> assertThat(l.attached()).isEmpty());
        assertThat(reads)
                .as("one read per received batch, for its letters")
                .allSatisfy(n -> assertThat(n).isPositive());
        assertThat(reads.stream().mapToInt(Integer::intValue).sum()).isEqualTo(10);
    }

    @Test
    void aReplayIsTheOriginalEveryAttributeWithItsType() {
        Map<String, MessageAttribute> original = Attributes.everyType();
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
        Map<String, MessageAttribute> withMarker = new LinkedHashMap<>(Attributes.ten());
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
            assertThat(SqsAttributes.fromSqs(m.messageAttributes())).isEqualTo(Attributes.ten());
        }
    }

    /**
     * A probe's replay carries its breaker's probe ticket as well as its marker (issue 36, item 5); with no room for
     * both, the ticket goes first (its consumer then probes once the replay's lease lapses), and with no room for
     * either, the replay is the original.
     */
    @Test
    void aProbesReplayWithNoRoomForItsTicketGoesWithoutItThenWithoutItsMarker() {
        Map<String, MessageAttribute> nine = new LinkedHashMap<>(Attributes.ten());
        nine.remove(nine.keySet().iterator().next());
        Map<String, MessageAttribute> probe = new LinkedHashMap<>(nine);
        probe.put(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-1:1"));
        probe.put(ProbeTicket.ATTRIBUTE, MessageAttribute.ofString("email-provider:7"));
        Map<String, MessageAttribute> tenAndProbe = new LinkedHashMap<>(Attributes.ten());
        tenAndProbe.put(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-2:1"));
        tenAndProbe.put(ProbeTicket.ATTRIBUTE, MessageAttribute.ofString("email-provider:7"));
        SqsReplaySender sender = new SqsReplaySender(aws.sqs(), directory);

        assertThat(sender.send(source, "{\"n\":1}", probe)).isNotNull();
        assertThat(sender.send(source, "{\"n\":2}", tenAndProbe)).isNotNull();

        Map<String, Map<String, MessageAttribute>> byBody = new LinkedHashMap<>();
        aws.sqs()
                .receiveMessage(b -> b.queueUrl(pair.url())
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(1)
                        .messageAttributeNames("All"))
                .messages()
                .forEach(m -> byBody.put(m.body(), SqsAttributes.fromSqs(m.messageAttributes())));
        Map<String, MessageAttribute> withMarker = new LinkedHashMap<>(nine);
        withMarker.put(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-1:1"));
        assertThat(byBody.get("{\"n\":1}")).isEqualTo(withMarker);
        assertThat(byBody.get("{\"n\":2}")).isEqualTo(Attributes.ten());
    }

    static MessageAttribute typed(MessageAttributeValue v) {
        return new MessageAttribute(
                v.dataType(),
                v.stringValue(),
                v.binaryValue() == null ? null : v.binaryValue().asByteArray());
    }
}
