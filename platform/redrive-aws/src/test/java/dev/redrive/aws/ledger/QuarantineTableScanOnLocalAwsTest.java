package dev.redrive.aws.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A scan of the quarantine table meets each source queue's counts item beside the records (the local run's observer
 * and any operator's script scan it): {@link QuarantineItems#isRecord} tells them apart, and only records are read as
 * records. Found by the local run's scenarios, which failed reading a counts item as a record ("Name is null").
 */
@LocalAwsTest
class QuarantineTableScanOnLocalAwsTest {

    private final String table = ControlTables.quarantine(LocalAws.shared());
    private final DynamoDbQuarantineLedger ledger =
            new DynamoDbQuarantineLedger(LocalAws.shared().dynamoDb(), table, Clock.systemUTC());

    private static QuarantineRecord record(String id, String queue) {
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin("scan", queue, queue + "-dlq", "m-" + id, "scan#k-" + id, at),
                new DeadLetterEvidence(Classification.of(FailureClass.TRANSIENT, "Timeout", "slow"), at, at, 3, null),
                new PayloadLocation.Inline("{}"),
                Map.of(),
                0,
                "arrived",
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, at, Actor.AUTOMATION, "arrived")),
                0);
    }

    @Test
    void aScanReadsTheRecordsAndTellsTheQueuesCountsItemApart() {
        String queue = "scan-" + UUID.randomUUID();
        String first = "s-" + UUID.randomUUID();
        String second = "s-" + UUID.randomUUID();
        assertThat(ledger.insertIfAbsent(record(first, queue), Optional.empty()))
                .isTrue();
        assertThat(ledger.insertIfAbsent(record(second, queue), Optional.empty()))
                .isTrue();

        List<Map<String, AttributeValue>> ofQueue = new ArrayList<>();
        for (var page : LocalAws.shared().dynamoDb().scanPaginator(b -> b.tableName(table))) {
            page.items().stream()
                    .filter(i -> i.get("pk").s().equals("counts#" + queue)
                            || (i.containsKey("sourceQueue")
                                    && i.get("sourceQueue").s().equals(queue)))
                    .forEach(ofQueue::add);
        }
        assertThat(ofQueue).hasSize(3);
        Map<String, AttributeValue> counts = ofQueue.stream()
                .filter(i -> !QuarantineItems.isRecord(i))
                .findFirst()
                .orElseThrow();
        assertThat(counts.get("pk").s()).isEqualTo("counts#" + queue);
        assertThatThrownBy(() -> QuarantineItems.fromItem(counts)).as("a counts item is no record");
        assertThat(ofQueue.stream()
                        .filter(QuarantineItems::isRecord)
                        .map(QuarantineItems::fromItem)
                        .map(QuarantineRecord::id))
                .containsExactlyInAnyOrder(first, second);
    }
}
