package dev.redrive.core.operator;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.sweeper.DeadLetterSource.QueueDepth;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The operator port's runs one dead letter at a time, its statistics, its listings by queue and its figures. */
class LedgerOperatorRunsTest {

    final SweeperFixture f = new SweeperFixture();
    final OperatorPort operator = f.operator().build();
    final Actor ada = Actor.person("ada");
    List<String> ids;

    /** What a listener was told, in order. */
    record Told(String id, Optional<QuarantineState> before, Object outcome) {}

    @BeforeEach
    void quarantineFive() {
        for (int i = 0; i < 4; i++) {
            f.dlq.add(
                    ROUTE.deadLetterQueue(),
                    attached("t" + i + "|x", FailureClass.TRANSIENT, "Timeout", "mail", T0.minusSeconds(60 - i)));
        }
        f.dlq.add(ROUTE.deadLetterQueue(), attached("v0:s|x", FailureClass.SCHEMA, "UnknownVersion", null, T0));
        f.clock.advance(Duration.ofSeconds(2));
        f.sweep();
        ids = operator.list(QuarantineQuery.waiting(10)).stream()
                .map(QuarantineRecord::id)
                .toList();
        assertThat(ids).hasSize(5);
    }

    @Test
    void anApprovedReplayCountsInTheReplayStatisticsOncePerSentReplay() {
        operator.approveReplay(ids, ada, "fixed", true);
        assertThat(f.stats.totals()).as("a dry run counts nothing").isEmpty();

        Map<String, ReplayOutcome> outcomes = operator.approveReplay(ids, ada, "fixed", false);

        assertThat(outcomes.values())
                .filteredOn(ReplayOutcome.Sent.class::isInstance)
                .hasSize(4);
        assertThat(f.stats.totals()).isEqualTo(Map.of(FailureClass.TRANSIENT, new ReplayStats.Totals(4, 0)));
    }

    @Test
    void aRunOneAtATimeTellsEachOutcomeInOrderWithTheStateBeforeAndCountsEachSend() {
        List<Told> told = new ArrayList<>();

        RunResult result = operator.replayEach(
                ids, ada, "fixed", false, (id, before, outcome) -> told.add(new Told(id, before, outcome)));

        assertThat(result).isEqualTo(new RunResult(5, 5, false, Optional.empty()));
        assertThat(told).extracting(Told::id).containsExactlyElementsOf(ids);
        assertThat(told).extracting(Told::before).containsOnly(Optional.of(QuarantineState.QUARANTINED));
        assertThat(told)
                .extracting(t -> t.outcome().getClass().getSimpleName())
                .containsExactlyInAnyOrder("Sent", "Sent", "Sent", "Sent", "Refused");
        assertThat(f.sender.batches()).as("one send per dead letter").isEqualTo(4);
        assertThat(f.stats.totals()).isEqualTo(Map.of(FailureClass.TRANSIENT, new ReplayStats.Totals(4, 0)));
    }

    @Test
    void aRunStopsBetweenTwoDeadLettersWhenAskedAndTheRestIsUntouched() {
        List<String> done = new ArrayList<>();
        RunListener<ReplayOutcome> stopAfterTwo = new RunListener<>() {
            @Override
            public boolean stopRequested() {
                return done.size() == 2;
            }

            @Override
            public void done(String id, Optional<QuarantineState> before, ReplayOutcome outcome) {
                done.add(id);
            }
        };

        RunResult result = operator.replayEach(ids, ada, "fixed", false, stopAfterTwo);

        assertThat(result).isEqualTo(new RunResult(5, 2, true, Optional.empty()));
        assertThat(result.left()).isEqualTo(3);
        assertThat(ids.subList(2, 5))
                .allSatisfy(id ->
                        assertThat(operator.show(id).orElseThrow().state()).isEqualTo(QuarantineState.QUARANTINED));
    }

    @Test
    void aFailureEndsTheRunOnTheDeadLetterInHand() {
        f.sender.failNextSends(1);

        RunResult result = operator.replayEach(ids, ada, "fixed", false, RunListener.none());

        assertThat(result.done()).isZero();
        assertThat(result.stopped()).isFalse();
        assertThat(result.failure()).hasValueSatisfying(failure -> {
            assertThat(failure.quarantineId()).isEqualTo(ids.get(0));
            assertThat(failure.error()).hasMessageContaining("simulated");
        });
        assertThat(f.stats.totals()).isEmpty();
    }

    @Test
    void aDryRunNeedsNoPersonAndChangesNothing() {
        RunResult result = operator.replayEach(ids, null, "check", true, RunListener.none());

        assertThat(result.done()).isEqualTo(5);
        assertThat(f.sender.sent()).isEmpty();
        assertThat(f.stats.totals()).isEmpty();
        assertThatThrownBy(() -> operator.replayEach(ids, Actor.AUTOMATION, "no", false, RunListener.none()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void archivingOneAtATimeTellsEachOutcomeAndRefusesWithoutANote() {
        List<Told> told = new ArrayList<>();

        RunResult result = operator.archiveEach(
                ids.subList(0, 2), ada, "junk", false, (id, before, o) -> told.add(new Told(id, before, o)));

        assertThat(result.done()).isEqualTo(2);
        assertThat(told).extracting(Told::outcome).allMatch(ArchiveDecision.Archived.class::isInstance);
        assertThat(operator.show(ids.get(0)).orElseThrow().state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThatThrownBy(() -> operator.archiveEach(ids, ada, " ", false, RunListener.none()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aQueueOverManyStatesIsListedWithItsTombstonesAndTheFiguresCountThem() {
        QuarantineRecord first = operator.show(ids.get(0)).orElseThrow();
        QuarantineRecord archived = f.ledger
                .save(first.moveTo(QuarantineState.ARCHIVED, ada, "junk", T0), Optional.empty())
                .orElseThrow();
        f.ledger
                .save(archived.tombstone("archive/1.jsonl.gz"), Optional.empty())
                .orElseThrow();
        Set<QuarantineState> all = Set.of(QuarantineState.values());

        List<QuarantineRecord> ofQueue = operator.list(new QuarantineQuery(
                Optional.of(ROUTE.sourceQueue()), all, Set.of(), Optional.empty(), Optional.empty(), 10));
        List<QuarantineRecord> byState = operator.list(
                new QuarantineQuery(Optional.empty(), all, Set.of(), Optional.empty(), Optional.empty(), 10));
        RouteStatus status = operator.status(ROUTE, Duration.ofHours(1));

        assertThat(ofQueue)
                .extracting(QuarantineRecord::id)
                .contains(first.id())
                .hasSize(5);
        assertThat(byState)
                .extracting(QuarantineRecord::id)
                .doesNotContain(first.id())
                .hasSize(4);
        assertThat(status.byState()).isEqualTo(Map.of(QuarantineState.ARCHIVED, 1, QuarantineState.QUARANTINED, 4));
        assertThat(status.arrivals()).containsEntry(FailureClass.TRANSIENT, 4).containsEntry(FailureClass.POISON, 0);
        assertThat(status.oldestUnresolved()).map(QuarantineRecord::id).contains(ids.get(1));
        assertThat(status.deadLetters()).isEqualTo(new QueueDepth(0, 0, 0));
    }
}
