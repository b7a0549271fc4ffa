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
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.Route;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A route's status from the ledger's narrow reads (counts by state, arrivals since, the oldest unresolved) is the one
 * computed by reading every record of the queue, as it was before, on the same data, whatever its shape.
 */
class RouteStatusReadsTest {

    private static final Duration SINCE = Duration.ofHours(24);

    private final SweeperFixture f = new SweeperFixture();
    private final OperatorPort operator = f.operator().build();

    @Test
    void anEmptyLedgerHasNoStatesNoArrivalsAndNoOldest() {
        RouteStatus status = operator.status(ROUTE, SINCE);

        assertThat(status).isEqualTo(byReadingEveryRecord(f.ledger, f.dlq, ROUTE, SINCE, T0));
        assertThat(status.byState()).isEmpty();
        assertThat(status.oldestUnresolved()).isEmpty();
        assertThat(status.arrivals().values()).containsOnly(0);
    }

    @Test
    void aLedgerOfResolvedRecordsAndTombstonesHasNoOldestUnresolved() {
        put(record("q-1", QuarantineState.REPLAYED, FailureClass.TRANSIENT, T0.minusSeconds(60), ROUTE));
        put(record("q-2", QuarantineState.ARCHIVED, FailureClass.POISON, T0.minusSeconds(120), ROUTE));
        put(record("q-3", QuarantineState.ARCHIVED, FailureClass.PERMANENT, T0.minus(Duration.ofDays(3)), ROUTE)
                .tombstone("archive/1.jsonl.gz"));
        put(record("q-4", QuarantineState.REPLAYED, FailureClass.TRANSIENT, T0.minus(Duration.ofDays(2)), ROUTE)
                .tombstone("archive/2.jsonl.gz"));

        RouteStatus status = operator.status(ROUTE, SINCE);

        assertThat(status).isEqualTo(byReadingEveryRecord(f.ledger, f.dlq, ROUTE, SINCE, T0));
        assertThat(status.byState()).isEqualTo(Map.of(QuarantineState.REPLAYED, 2, QuarantineState.ARCHIVED, 2));
        assertThat(status.oldestUnresolved()).isEmpty();
        assertThat(status.arrivals())
                .containsEntry(FailureClass.TRANSIENT, 1)
                .containsEntry(FailureClass.POISON, 1)
                .containsEntry(FailureClass.PERMANENT, 0);
    }

    @Test
    void arrivalsCountFromTheStartOfThePeriodIncludedAndNotBefore() {
        Instant from = T0.minus(SINCE);
        put(record("q-before", QuarantineState.QUARANTINED, FailureClass.TRANSIENT, from.minusMillis(1), ROUTE));
        put(record("q-at", QuarantineState.QUARANTINED, FailureClass.TRANSIENT, from, ROUTE));
        put(record("q-after", QuarantineState.UNDER_REVIEW, FailureClass.POISON, from.plusMillis(1), ROUTE));
        put(record("q-long-ago", QuarantineState.ARCHIVED, FailureClass.POISON, T0.minus(Duration.ofDays(30)), ROUTE)
                .tombstone("archive/3.jsonl.gz"));

        RouteStatus status = operator.status(ROUTE, SINCE);

        assertThat(status).isEqualTo(byReadingEveryRecord(f.ledger, f.dlq, ROUTE, SINCE, T0));
        assertThat(status.arrivals()).containsEntry(FailureClass.TRANSIENT, 1).containsEntry(FailureClass.POISON, 1);
        assertThat(status.oldestUnresolved()).map(QuarantineRecord::id).contains("q-before");
    }

    @Test
    void manyStatesOverTwoQueuesWithTiesGiveTheSameStatusAsReadingEveryRecord() {
        Route other = new Route("scripted", "other", "other-dlq");
        Random random = new Random(7);
        QuarantineState[] states = QuarantineState.values();
        FailureClass[] classes = FailureClass.values();
        for (int i = 0; i < 600; i++) {
            Route route = i % 3 == 0 ? other : ROUTE;
            QuarantineState state = states[random.nextInt(states.length)];
            // whole minutes over three days: many records arrive at the same instant
            Instant arrived = T0.minusSeconds(60L * random.nextInt(3 * 24 * 60));
            QuarantineRecord r = record(
                    String.format("q-%04d", random.nextInt(10_000)) + "-" + i,
                    state,
                    classes[random.nextInt(classes.length)],
                    arrived,
                    route);
            put(state.resolved() && random.nextBoolean() ? r.tombstone("archive/" + i + ".jsonl.gz") : r);
        }

        for (Duration since : List.of(Duration.ofMinutes(30), SINCE, Duration.ofDays(2), Duration.ofDays(7))) {
            for (Route route : List.of(ROUTE, other)) {
                RouteStatus status = operator.status(route, since);

                assertThat(status)
                        .as("%s over %s", route.sourceQueue(), since)
                        .isEqualTo(byReadingEveryRecord(f.ledger, f.dlq, route, since, T0));
                assertThat(status.byState().values().stream()
                                .mapToInt(Integer::intValue)
                                .sum())
                        .isEqualTo(f.ledger
                                .ofQueue(route.sourceQueue(), Integer.MAX_VALUE)
                                .size());
            }
        }
    }

    @Test
    void theArrivalsOfAPeriodAreTheQueuesRecordsFromItsStartOldestFirstTombstonesIncluded() {
        Instant from = T0.minus(SINCE);
        put(record("q-b", QuarantineState.QUARANTINED, FailureClass.TRANSIENT, from.plusSeconds(5), ROUTE));
        put(record("q-a", QuarantineState.ARCHIVED, FailureClass.POISON, from.plusSeconds(5), ROUTE)
                .tombstone("archive/4.jsonl.gz"));
        put(record("q-c", QuarantineState.QUARANTINED, FailureClass.TRANSIENT, from, ROUTE));
        put(record("q-old", QuarantineState.QUARANTINED, FailureClass.TRANSIENT, from.minusSeconds(1), ROUTE));
        put(record(
                "q-elsewhere",
                QuarantineState.QUARANTINED,
                FailureClass.TRANSIENT,
                from.plusSeconds(9),
                new Route("scripted", "other", "other-dlq")));

        assertThat(operator.arrivedSince(ROUTE.sourceQueue(), from))
                .extracting(QuarantineRecord::id)
                .containsExactly("q-c", "q-a", "q-b");
    }

    /** The status as it was computed before: every record of the queue read and counted. */
    static RouteStatus byReadingEveryRecord(
            QuarantineLedger ledger, DeadLetterSource queues, Route route, Duration since, Instant now) {
        Map<FailureClass, Integer> arrivals = new EnumMap<>(FailureClass.class);
        for (FailureClass c : FailureClass.values()) {
            arrivals.put(c, 0);
        }
        Map<QuarantineState, Integer> states = new EnumMap<>(QuarantineState.class);
        QuarantineRecord oldest = null;
        Instant from = now.minus(since);
        for (QuarantineRecord r : ledger.ofQueue(route.sourceQueue(), Integer.MAX_VALUE)) {
            states.merge(r.state(), 1, Integer::sum);
            if (!r.arrivedAt().isBefore(from)) {
                arrivals.merge(r.classification().failureClass(), 1, Integer::sum);
            }
            if (!r.state().resolved() && (oldest == null || r.arrivedAt().isBefore(oldest.arrivedAt()))) {
                oldest = r;
            }
        }
        return new RouteStatus(
                route,
                queues.approximateDepth(route.sourceQueue()),
                queues.approximateDepth(route.deadLetterQueue()),
                Optional.ofNullable(oldest),
                arrivals,
                states);
    }

    private void put(QuarantineRecord r) {
        assertThat(f.ledger.insertIfAbsent(r, Optional.empty())).isTrue();
    }

    private static QuarantineRecord record(
            String id, QuarantineState state, FailureClass c, Instant arrived, Route route) {
        return new QuarantineRecord(
                id,
                state,
                new DeadLetterOrigin(
                        route.consumer(), route.sourceQueue(), route.deadLetterQueue(), "m-" + id, "k-" + id, arrived),
                new DeadLetterEvidence(new Classification(c, "Timeout", "slow", null), arrived, arrived, 3),
                new PayloadLocation.Inline("{}"),
                Map.of(),
                0,
                "arrived",
                List.of(new AuditEntry(null, state, arrived, Actor.AUTOMATION, "arrived")),
                0);
    }
}
