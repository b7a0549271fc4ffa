package dev.redrive.core.sweeper;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static dev.redrive.testing.sweeper.SweeperFixture.returned;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Retention counts from a record's last state change; a replay that comes back always reopens a record every listing
 * sees; a dead letter leaves its queue only once its record can be worked.
 */
class ReturnedReplayTest {

    final SweeperFixture f = new SweeperFixture(); // retention: 7 days
    final Actor ada = Actor.person("ada");

    QuarantineRecord only() {
        assertThat(f.ledger.all()).hasSize(1);
        return f.ledger.all().get(0);
    }

    ReplayMarker sentMarker(int i) {
        return ReplayMarker.decode(f.sender.sent().get(i).stringAttributes().get(ReplayMarker.ATTRIBUTE))
                .orElseThrow();
    }

    @Test
    void retentionCountsFromTheLastStateChangeNotFromArrival() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached("late|x", FailureClass.PERMANENT, "Rule", null, T0));
        f.sweep();
        f.clock.advance(Duration.ofDays(6));
        assertThat(f.replays.replay(only().id(), ada, "fixed on day 6", Optional.empty(), false))
                .isInstanceOf(ReplayOutcome.Sent.class);

        f.clock.advance(Duration.ofDays(2)); // day 8: 8 days after arrival, 2 after the replay
        SweepReport day8 = f.sweep();

        assertThat(day8.archivedToStoreCount())
                .as("replayed 2 days ago: not past retention")
                .isZero();
        assertThat(only().archivedToStore()).isFalse();
        assertThat(f.ledger.inState(QuarantineState.REPLAYED, Optional.empty(), 10))
                .hasSize(1);

        f.clock.advance(Duration.ofDays(5).plusMinutes(1)); // day 13: over 7 days after the replay
        assertThat(f.sweep().archivedToStoreCount()).isEqualTo(1);
        assertThat(only().archivedToStore()).isTrue();
    }

    @Test
    void aReplayReturningAfterItsRecordWasTombstonedReopensARecordEveryListingSees() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached("gone|x", FailureClass.PERMANENT, "Rule", null, T0));
        f.sweep();
        f.replays.replay(only().id(), ada, "fixed", Optional.empty(), false);
        f.clock.advance(Duration.ofDays(8));
        f.sweep();
        assertThat(only().archivedToStore())
                .as("the REPLAYED record is a tombstone now")
                .isTrue();
        f.dlq.add(ROUTE.deadLetterQueue(), returned("gone|x", sentMarker(0)));
        // the consumer claimed the replayed message and died: its claim is there, its lease over
        f.claims.claim(
                LeasePolicy.DEFAULT.request(
                        new IdempotencyKey("scripted", "gone"),
                        PayloadFingerprint.of("gone|x"),
                        MessageOrigin.UNKNOWN,
                        f.clock.instant(),
                        Duration.ofSeconds(60)),
                f.clock.instant());
        f.clock.advance(Duration.ofMinutes(5));

        SweepReport report = f.sweep();

        assertThat(f.dlq.depth(ROUTE.deadLetterQueue())).isZero();
        QuarantineRecord reopened = only();
        assertThat(reopened.state()).isEqualTo(QuarantineState.QUARANTINED);
        assertThat(reopened.archivedToStore())
                .as("an active record, not a tombstone")
                .isFalse();
        assertThat(f.payloads.bodyOf(reopened))
                .as("the returned payload is kept again")
                .contains("gone|x");
        assertThat(f.ledger.inState(QuarantineState.QUARANTINED, Optional.of(ROUTE.sourceQueue()), 10))
                .extracting(QuarantineRecord::id)
                .containsExactly(reopened.id());
        assertThat(f.ledger.count(QuarantineState.QUARANTINED, ROUTE.sourceQueue()))
                .isEqualTo(1);
        assertThat(report.oldestUnresolvedAge())
                .hasValueSatisfying(age -> assertThat(age).isPositive());
        assertThat(report.replaysReturnedByClass()).containsEntry(FailureClass.PERMANENT, 1);
        assertThat(f.replays.replay(reopened.id(), ada, "again", Optional.empty(), false))
                .isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(f.sender.sent()).hasSize(2);
        assertThat(f.sender.sent().get(1).body()).isEqualTo("gone|x");
    }

    @Test
    void aReturnWhoseReopenCannotBeWrittenStaysInTheDeadLetterQueue() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached("kept|x", FailureClass.PERMANENT, "Rule", null, T0));
        f.sweep();
        f.replays.replay(only().id(), ada, "fixed", Optional.empty(), false);
        f.dlq.add(ROUTE.deadLetterQueue(), returned("kept|x", sentMarker(0)));
        // another writer changes the record before each of the sweeper's reopen saves
        f.interleaved.beforeSaves(
                only().id(), 10, r -> f.ledger.save(f.ledger.find(r.id()).orElseThrow(), Optional.empty()));

        f.sweep();

        assertThat(only().state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(f.dlq.depth(ROUTE.deadLetterQueue()))
                .as("not deleted while its record still says REPLAYED")
                .isEqualTo(1);

        f.interleaved.beforeSaves(only().id(), 0, r -> {});
        f.dlq.redeliverUndeleted();
        f.sweep();

        assertThat(only().state()).isEqualTo(QuarantineState.QUARANTINED);
        assertThat(f.dlq.depth(ROUTE.deadLetterQueue())).isZero();
    }
}
