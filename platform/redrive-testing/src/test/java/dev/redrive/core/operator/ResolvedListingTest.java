package dev.redrive.core.operator;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
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
import dev.redrive.core.sweeper.Route;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A listing of resolved dead letters (REPLAYED, ARCHIVED) shows the ones the archive sweep moved to the store too: their
 * tombstones leave the ledger's by-state reads, and an on-call person asking what was archived must not be told
 * "none". With a queue, its records are read by queue; without one, each route's source queue the operator was given.
 */
class ResolvedListingTest {

    static final Route OTHER = new Route("other", "payments", "payments-dlq");

    final SweeperFixture f = new SweeperFixture();

    @BeforeEach
    void ledger() {
        put(record("q-archived", QuarantineState.ARCHIVED, T0.minus(Duration.ofDays(1)), ROUTE));
        put(record("q-archived-stored", QuarantineState.ARCHIVED, T0.minus(Duration.ofDays(9)), ROUTE)
                .tombstone("archive/1.jsonl.gz"));
        put(record("q-replayed-stored", QuarantineState.REPLAYED, T0.minus(Duration.ofDays(8)), ROUTE)
                .tombstone("archive/2.jsonl.gz"));
        put(record("q-waiting", QuarantineState.QUARANTINED, T0.minus(Duration.ofDays(10)), ROUTE));
        put(record("q-other-stored", QuarantineState.ARCHIVED, T0.minus(Duration.ofDays(9)), OTHER)
                .tombstone("archive/3.jsonl.gz"));
    }

    @Test
    void aQueuesArchivedListingShowsItsDeadLettersArchivedToTheStore() {
        OperatorPort operator = f.operator().build();

        assertThat(ids(operator, Optional.of(ROUTE.sourceQueue()), Set.of(QuarantineState.ARCHIVED), Optional.empty()))
                .containsExactly("q-archived-stored", "q-archived");
        assertThat(ids(operator, Optional.of(ROUTE.sourceQueue()), Set.of(QuarantineState.REPLAYED), Optional.empty()))
                .containsExactly("q-replayed-stored");
        assertThat(ids(
                        operator,
                        Optional.of(ROUTE.sourceQueue()),
                        Set.of(QuarantineState.ARCHIVED),
                        Optional.of(Duration.ofDays(5))))
                .as("an age limit keeps them too")
                .containsExactly("q-archived-stored");
    }

    @Test
    void anArchivedListingOfEveryQueueShowsTheStoredOnesOfEachRoutesSourceQueue() {
        OperatorPort operator = f.operator()
                .sourceQueues(List.of(ROUTE.sourceQueue(), OTHER.sourceQueue()))
                .build();

        assertThat(ids(operator, Optional.empty(), Set.of(QuarantineState.ARCHIVED), Optional.empty()))
                .containsExactly("q-archived-stored", "q-other-stored", "q-archived");
        assertThat(ids(
                        operator,
                        Optional.empty(),
                        Set.of(QuarantineState.ARCHIVED, QuarantineState.QUARANTINED),
                        Optional.empty()))
                .containsExactly("q-waiting", "q-archived-stored", "q-other-stored", "q-archived");
    }

    @Test
    void anUnresolvedListingReadsNoQueueWhole() {
        OperatorPort operator =
                f.operator().sourceQueues(List.of(ROUTE.sourceQueue())).build();

        assertThat(ids(operator, Optional.empty(), Set.of(QuarantineState.QUARANTINED), Optional.empty()))
                .containsExactly("q-waiting");
    }

    private static List<String> ids(
            OperatorPort operator, Optional<String> queue, Set<QuarantineState> states, Optional<Duration> olderThan) {
        return operator.list(new QuarantineQuery(queue, states, Set.of(), olderThan, Optional.empty(), 100)).stream()
                .map(QuarantineRecord::id)
                .toList();
    }

    private void put(QuarantineRecord r) {
        assertThat(f.ledger.insertIfAbsent(r, Optional.empty())).isTrue();
    }

    private static QuarantineRecord record(String id, QuarantineState state, Instant arrived, Route route) {
        return new QuarantineRecord(
                id,
                state,
                new DeadLetterOrigin(
                        route.consumer(), route.sourceQueue(), route.deadLetterQueue(), "m-" + id, "k-" + id, arrived),
                new DeadLetterEvidence(
                        new Classification(FailureClass.TRANSIENT, "Timeout", "slow", null), arrived, arrived, 3),
                new PayloadLocation.Inline("{}"),
                Map.of(),
                0,
                "arrived",
                List.of(new AuditEntry(null, state, arrived, Actor.AUTOMATION, "arrived")),
                0);
    }
}
