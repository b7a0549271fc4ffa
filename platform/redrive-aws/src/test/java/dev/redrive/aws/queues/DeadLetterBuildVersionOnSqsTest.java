package dev.redrive.aws.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.redrive.aws.claims.DynamoDbDeadLetterNotes;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The consumer's build version in the failure metadata it attaches to a dead letter ({@value
 * DeadLetterMetadata#ATTRIBUTE}), on local AWS: sent by the queue gateway, read back by the sweeper's dead-letter
 * source; metadata attached before versions were recorded reads with none.
 */
@LocalAwsTest
class DeadLetterBuildVersionOnSqsTest {

    static final Instant AT = Instant.parse("2026-12-06T09:00:00Z");
    final LocalAws aws = LocalAws.shared();
    final QueueDirectory directory = new QueueDirectory(aws.sqs(), Optional.empty());

    private static DeadLetter letter(String id, String version) {
        IncomingMessage m = new IncomingMessage(id, "rh-" + id, "{}", Map.of(), 1, "orders", null, Map.of());
        FailureRecord failure = new FailureRecord(
                Classification.of(FailureClass.PERMANENT, "Rule", "refused"), 1, AT, AT, "orders", version);
        return new DeadLetter(m, "versions", "versions#" + id, failure);
    }

    @Test
    void theVersionTheConsumerAttachesReachesTheSweepersSource() {
        String source = "versions-" + UUID.randomUUID().toString().substring(0, 8);
        LocalResources.createQueuePair(aws, source, 5, 30);
        String claims = "version-notes-" + UUID.randomUUID().toString().substring(0, 8);
        LocalResources.createTable(aws.dynamoDb(), claims);

        assertThat(new SqsQueueGateway(aws.sqs(), directory)
                        .deadLetter(source, List.of(letter("m-1", "v1"), letter("m-2", ""))))
                .isEmpty();

        SqsDeadLetterSource dlq = new SqsDeadLetterSource(
                aws.sqs(), directory, 5, new DynamoDbDeadLetterNotes(aws.dynamoDb(), claims), Clock.systemUTC());
        List<ArrivedDeadLetter> arrived = new ArrayList<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            arrived.addAll(dlq.receive(source + "-dlq"));
            return arrived.size() >= 2;
        });

        assertThat(arrived).hasSize(2);
        Map<String, String> versionByMessage = new TreeMap<>();
        arrived.forEach(a -> versionByMessage.put(
                a.sourceMessageId(), a.attached().orElseThrow().failure().buildVersion()));
        assertThat(versionByMessage).isEqualTo(Map.of("m-1", "v1", "m-2", ""));
    }

    @Test
    void metadataWithAndWithoutAVersionReads() {
        DeadLetterMetadata with = DeadLetterMetadata.of(letter("m-3", "1.5.0"));
        assertThat(with.toJson()).contains("\"buildVersion\":\"1.5.0\"");
        assertThat(DeadLetterMetadata.parse(with.toJson())
                        .orElseThrow()
                        .failure()
                        .buildVersion())
                .isEqualTo("1.5.0");

        DeadLetterMetadata without = DeadLetterMetadata.of(letter("m-4", ""));
        assertThat(without.toJson()).doesNotContain("buildVersion");

        String old = "{\"consumer\":\"versions\",\"sourceQueue\":\"orders\",\"sourceMessageId\":\"m-5\","
                + "\"failureClass\":\"PERMANENT\",\"errorType\":\"Rule\",\"reason\":\"refused\",\"attempt\":1,"
                + "\"firstFailedAtMillis\":1000,\"lastFailedAtMillis\":2000}";
        FailureRecord read = DeadLetterMetadata.parse(old).orElseThrow().failure();
        assertThat(read.buildVersion())
                .as("attached before versions were recorded")
                .isEmpty();
        assertThat(read.lastFailedAt().toEpochMilli()).isEqualTo(2000);
    }
}
