package dev.redrive.core.operator;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.Route;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operator's reads of the ledger, each through the query that fits it: one queue over many states by queue (the
 * by-queue index keeps tombstones, so such a listing shows dead letters archived to the store too); an age limit by
 * state with the arrival cutoff in the query; otherwise by state, filtered by queue. A resolved state (REPLAYED,
 * ARCHIVED) also reads by queue, the query's or else each of {@code sourceQueues}: the archive sweep moves resolved
 * records to the store, and their tombstones leave the by-state reads.
 */
final class LedgerQueries {

    private final QuarantineLedger ledger;
    private final Clock clock;
    private final List<String> sourceQueues;

    LedgerQueries(QuarantineLedger ledger, Clock clock, List<String> sourceQueues) {
        this.ledger = ledger;
        this.clock = clock;
        this.sourceQueues = List.copyOf(sourceQueues);
    }

    List<QuarantineRecord> list(QuarantineQuery query) {
        Instant now = clock.instant();
        Map<String, QuarantineRecord> found = new LinkedHashMap<>();
        boolean byQueue = query.sourceQueue().isPresent()
                && query.states().size() > 2
                && query.olderThan().isEmpty();
        if (byQueue) {
            ledger.ofQueue(query.sourceQueue().get(), Integer.MAX_VALUE).forEach(r -> found.put(r.id(), r));
        } else {
            for (QuarantineState state : query.states()) {
                List<QuarantineRecord> inState = query.olderThan().isPresent()
                        ? ledger.arrivedBefore(
                                state, now.minus(query.olderThan().get()), Integer.MAX_VALUE)
                        : ledger.inState(state, query.sourceQueue(), Integer.MAX_VALUE);
                inState.forEach(r -> found.put(r.id(), r));
            }
            if (query.states().stream().anyMatch(QuarantineState::resolved)) {
                for (String queue : query.sourceQueue().map(List::of).orElse(sourceQueues)) {
                    ledger.ofQueue(queue, Integer.MAX_VALUE).stream()
                            .filter(QuarantineRecord::archivedToStore)
                            .forEach(r -> found.putIfAbsent(r.id(), r));
                }
            }
        }
        List<QuarantineRecord> matching = new ArrayList<>();
        for (QuarantineRecord r : found.values()) {
            if (query.states().contains(r.state())
                    && query.sourceQueue().map(q -> q.equals(r.sourceQueue())).orElse(true)
                    && query.matches(r, now)) {
                matching.add(r);
            }
        }
        matching.sort(Comparator.comparing(QuarantineRecord::arrivedAt).thenComparing(QuarantineRecord::id));
        return matching.size() <= query.limit() ? matching : List.copyOf(matching.subList(0, query.limit()));
    }

    /**
     * A route's figures from three reads that cost what the answer holds, not the queue's history: the count of each
     * state (tombstones included), the records that arrived over {@code since}, and the oldest unresolved record.
     */
    RouteStatus status(Route route, DeadLetterSource queues, Duration since) {
        Instant now = clock.instant();
        DeadLetterSource.QueueDepth source = queues.approximateDepth(route.sourceQueue());
        DeadLetterSource.QueueDepth deadLetters = queues.approximateDepth(route.deadLetterQueue());
        Map<FailureClass, Integer> arrivals = new EnumMap<>(FailureClass.class);
        for (FailureClass c : FailureClass.values()) {
            arrivals.put(c, 0);
        }
        for (QuarantineRecord r : arrivedSince(route.sourceQueue(), now.minus(since))) {
            arrivals.merge(r.classification().failureClass(), 1, Integer::sum);
        }
        Map<QuarantineState, Integer> states = new EnumMap<>(QuarantineState.class);
        ledger.countByState(route.sourceQueue()).forEach((state, count) -> states.put(state, Math.toIntExact(count)));
        return new RouteStatus(
                route, source, deadLetters, oldestUnresolved(route.sourceQueue(), states.keySet()), arrivals, states);
    }

    /**
     * The unresolved record of {@code sourceQueue} that arrived first (of two at once, the lower id): the first of each
     * unresolved state it has records in ({@code present}), by state, oldest first. A tombstone is never unresolved
     * (the archive sweep archives an unresolved record before it moves it to the store), so the active records are all
     * there is to look at.
     */
    private Optional<QuarantineRecord> oldestUnresolved(String sourceQueue, Set<QuarantineState> present) {
        QuarantineRecord oldest = null;
        for (QuarantineState state : present) {
            if (state.resolved()) {
                continue;
            }
            for (QuarantineRecord r :
                    ledger.oldestActive(state, sourceQueue).map(List::of).orElse(List.of())) {
                if (oldest == null || QuarantineLedger.OLDEST_FIRST.compare(r, oldest) < 0) {
                    oldest = r;
                }
            }
        }
        return Optional.ofNullable(oldest);
    }

    /** Every record of {@code sourceQueue} that arrived at or after {@code from}, tombstones included, oldest first. */
    List<QuarantineRecord> arrivedSince(String sourceQueue, Instant from) {
        return ledger.ofQueueSince(sourceQueue, from, Integer.MAX_VALUE);
    }
}
