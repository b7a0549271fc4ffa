package dev.redrive.core.operator;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.DeadLetterSource.QueueDepth;
import dev.redrive.core.sweeper.Route;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * One route at a glance, for operators: the depth of both queues, the oldest unresolved dead letter, arrivals by
 * failure class over a period, and the ledger's records by state (tombstones included, as archived).
 *
 * @param arrivals every failure class, with 0 where nothing arrived
 */
public record RouteStatus(
        Route route,
        QueueDepth source,
        QueueDepth deadLetters,
        Optional<QuarantineRecord> oldestUnresolved,
        Map<FailureClass, Integer> arrivals,
        Map<QuarantineState, Integer> byState) {

    public RouteStatus {
        Map<FailureClass, Integer> a = new EnumMap<>(FailureClass.class);
        a.putAll(arrivals);
        arrivals = Collections.unmodifiableMap(a);
        Map<QuarantineState, Integer> s = new EnumMap<>(QuarantineState.class);
        s.putAll(byState);
        byState = Collections.unmodifiableMap(s);
    }
}
