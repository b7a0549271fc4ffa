package dev.redrive.aws.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.quarantine.QuarantineLedgerContract;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DynamoDbQuarantineLedgerTest extends QuarantineLedgerContract {
    private static LocalAws aws;
    private static String control;
    private static String quarantine;

    @BeforeAll
    static void tables() {
        aws = LocalAws.shared();
        control = ControlTables.control(aws);
        quarantine = ControlTables.quarantine(aws);
    }

    @Override
    protected QuarantineLedger ledger(Clock clock) {
        return new DynamoDbQuarantineLedger(aws.dynamoDb(), quarantine, control, clock);
    }

    @Override
    protected LeaseStore leases() {
        return new DynamoDbLeaseStore(aws.dynamoDb(), control);
    }

    /** A record as a ledger wrote it before counts were kept: no {@code counted}, in no count. */
    private void legacy(QuarantineRecord r) {
        aws.dynamoDb().putItem(b -> b.tableName(quarantine).item(QuarantineItems.toItem(r.withVersion(1))));
    }

    @Test
    void establishCountsCountsEachRecordWrittenBeforeCountsWereKeptOnceThenIsDone() {
        Instant t = clock.instant().minus(Duration.ofHours(1));
        List<QuarantineRecord> old = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            QuarantineRecord r = record(id(), t.plusSeconds(i));
            old.add(i == 4 ? inState(r, QuarantineState.REPLAYED).tombstone("archive/4.jsonl.gz") : r);
        }
        old.forEach(this::legacy);
        assertThat(ledger.countByState(queue))
                .as("records written before counts were kept")
                .isEmpty();

        // A legacy record moved before the counts are established is counted where it goes, and nowhere less.
        QuarantineRecord moved = ledger.save(
                        ledger.find(old.get(0).id())
                                .orElseThrow()
                                .moveTo(QuarantineState.UNDER_REVIEW, Actor.person("ada"), "look", clock.instant()),
                        Optional.empty())
                .orElseThrow();
        ledger.insertIfAbsent(record(id(), t.plusSeconds(9)), Optional.empty());
        assertThat(ledger.countByState(queue))
                .isEqualTo(Map.of(QuarantineState.UNDER_REVIEW, 1L, QuarantineState.QUARANTINED, 1L));

        assertThat(ledger.establishCounts(queue, () -> false))
                .as("out of time at once")
                .isFalse();
        assertThat(ledger.countByState(queue)).hasSize(2);

        assertThat(ledger.establishCounts(queue, () -> true)).isTrue();
        assertCountsAreARecount(queue);
        assertThat(ledger.countByState(queue))
                .isEqualTo(Map.of(
                        QuarantineState.QUARANTINED, 4L,
                        QuarantineState.UNDER_REVIEW, 1L,
                        QuarantineState.REPLAYED, 1L));

        // Done: a second call counts nothing again, and later writes keep the counts.
        assertThat(ledger.establishCounts(queue, () -> true)).isTrue();
        ledger.save(
                        moved.moveTo(QuarantineState.ARCHIVED, Actor.person("ada"), "junk", clock.instant()),
                        Optional.empty())
                .orElseThrow();
        assertCountsAreARecount(queue);
        assertThat(ledger.count(QuarantineState.ARCHIVED, queue)).isEqualTo(1);
    }
}
