package dev.redrive.core.operator;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
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
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The arrival window of a query (a chart bucket's drill-down): from its start, included, to its end, excluded, in every
 * state asked for; a window that ends before it starts is refused.
 */
class ArrivalWindowQueryTest {

    final SweeperFixture f = new SweeperFixture();
    final OperatorPort operator = f.operator().build();

    @Test
    void listsExactlyTheDeadLettersThatArrivedInTheWindowStartIncludedEndExcluded() {
        Instant from = T0.minusSeconds(3_600);
        Instant to = T0.minusSeconds(1_800);
        put("q-before", from.minusMillis(1), QuarantineState.QUARANTINED);
        put("q-at-start", from, QuarantineState.QUARANTINED);
        put("q-inside-replayed", from.plusSeconds(60), QuarantineState.REPLAYED);
        put("q-inside", to.minusMillis(1), QuarantineState.QUARANTINED);
        put("q-at-end", to, QuarantineState.QUARANTINED);

        List<QuarantineRecord> all = operator.list(new QuarantineQuery(
                Optional.of(ROUTE.sourceQueue()),
                EnumSet.allOf(QuarantineState.class),
                Set.of(),
                Optional.empty(),
                Optional.empty(),
                100,
                Optional.of(from),
                Optional.of(to)));
        List<QuarantineRecord> unresolved = operator.list(new QuarantineQuery(
                Optional.of(ROUTE.sourceQueue()),
                QuarantineQuery.unresolved(),
                Set.of(),
                Optional.empty(),
                Optional.empty(),
                100,
                Optional.of(from),
                Optional.of(to)));

        assertThat(all).extracting(QuarantineRecord::id).containsExactly("q-at-start", "q-inside-replayed", "q-inside");
        assertThat(unresolved).extracting(QuarantineRecord::id).containsExactly("q-at-start", "q-inside");
        assertThat(operator.list(QuarantineQuery.waiting(100)))
                .as("without a window: every one")
                .hasSize(4);
    }

    @Test
    void aWindowThatEndsBeforeItStartsIsRefused() {
        assertThatThrownBy(() -> new QuarantineQuery(
                        Optional.empty(),
                        Set.of(),
                        Set.of(),
                        Optional.empty(),
                        Optional.empty(),
                        1,
                        Optional.of(T0),
                        Optional.of(T0.minusSeconds(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends before it starts");
    }

    private void put(String id, Instant arrived, QuarantineState state) {
        f.ledger.insertIfAbsent(
                new QuarantineRecord(
                        id,
                        state,
                        new DeadLetterOrigin(
                                ROUTE.consumer(),
                                ROUTE.sourceQueue(),
                                ROUTE.deadLetterQueue(),
                                "m-" + id,
                                "k-" + id,
                                arrived),
                        new DeadLetterEvidence(
                                new Classification(FailureClass.TRANSIENT, "Timeout", "slow", null),
                                arrived,
                                arrived,
                                3),
                        new PayloadLocation.Inline("{}"),
                        Map.of(),
                        0,
                        "arrived",
                        List.of(new AuditEntry(null, state, arrived, Actor.AUTOMATION, "arrived")),
                        0),
                Optional.empty());
    }
}
