package dev.redrive.aws.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The consumer's build version on a quarantine ledger item, on local AWS: stored and read back, listed with the state
 * queries, dropped by a save of a record that has none, and absent from an item written before versions were (which
 * still reads, with none).
 */
@LocalAwsTest
class QuarantineBuildVersionOnLocalAwsTest {

    private static LocalAws aws;
    private static String control;
    private static String quarantine;

    @BeforeAll
    static void tables() {
        aws = LocalAws.shared();
        control = ControlTables.control(aws);
        quarantine = ControlTables.quarantine(aws);
    }

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private final String queue = "versions-" + UUID.randomUUID().toString().substring(0, 8);
    private final DynamoDbQuarantineLedger ledger =
            new DynamoDbQuarantineLedger(LocalAws.shared().dynamoDb(), quarantine, control, Clock.systemUTC());

    private QuarantineRecord record(String id, String version) {
        return new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin("versions", queue, queue + "-dlq", "m-" + id, "versions#k-" + id, now),
                new DeadLetterEvidence(
                        Classification.of(FailureClass.TRANSIENT, "Timeout", "slow"),
                        now.minusSeconds(60),
                        now.minusSeconds(30),
                        3,
                        version),
                new PayloadLocation.Inline("{}"),
                Map.of(),
                0,
                "arrived",
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, now, Actor.AUTOMATION, "arrived")),
                0);
    }

    @Test
    void theVersionIsStoredReadAndListed() {
        String id = "q-" + UUID.randomUUID();
        assertThat(ledger.insertIfAbsent(record(id, "v1"), Optional.empty())).isTrue();

        assertThat(ledger.find(id).orElseThrow().buildVersion()).isEqualTo("v1");
        assertThat(ledger.inState(QuarantineState.QUARANTINED, Optional.of(queue), 10))
                .extracting(QuarantineRecord::buildVersion)
                .containsExactly("v1");
    }

    @Test
    void aSaveOfARecordWithNoVersionLeavesNoneBehind() {
        String id = "q-" + UUID.randomUUID();
        ledger.insertIfAbsent(record(id, "v1"), Optional.empty());
        QuarantineRecord stored = ledger.find(id).orElseThrow();

        ledger.save(
                new QuarantineRecord(
                        id,
                        stored.state(),
                        stored.origin(),
                        new DeadLetterEvidence(
                                stored.classification(), stored.firstFailedAt(), stored.lastFailedAt(), 3),
                        stored.payload(),
                        stored.attributes(),
                        stored.replayCount(),
                        stored.note(),
                        stored.audit(),
                        stored.version()),
                Optional.empty());

        assertThat(ledger.find(id).orElseThrow().buildVersion()).isEmpty();
    }

    @Test
    void anItemWrittenBeforeVersionsWereRecordedStillReadsWithNone() {
        String id = "q-" + UUID.randomUUID();
        Map<String, AttributeValue> item = new HashMap<>(QuarantineItems.toItem(record(id, "v1")));
        item.remove("buildVersion");
        aws.dynamoDb().putItem(b -> b.tableName(quarantine).item(item));

        QuarantineRecord read = ledger.find(id).orElseThrow();

        assertThat(read.buildVersion()).isEmpty();
        assertThat(read.classification().errorType()).isEqualTo("Timeout");
        assertThat(QuarantineItems.toItem(record(id, "v1")))
                .as("what is written today carries it")
                .containsEntry("buildVersion", AttributeValue.fromS("v1"));
    }
}
