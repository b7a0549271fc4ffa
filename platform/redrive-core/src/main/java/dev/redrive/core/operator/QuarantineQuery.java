package dev.redrive.core.operator;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which dead letters an operator asks for.
 *
 * @param sourceQueue only this queue, if given
 * @param states      these states (default: the unresolved ones), in the order of {@link QuarantineState}
 * @param classes     these failure classes (empty: all)
 * @param olderThan   only those waiting longer than this, if given
 * @param errorType   only this error type, if given
 * @param limit       at most this many
 * @param arrivedFrom   only those that arrived at or after this, if given (a chart bucket's start)
 * @param arrivedBefore only those that arrived before this, if given (a chart bucket's end)
 */
public record QuarantineQuery(
        Optional<String> sourceQueue,
        Set<QuarantineState> states,
        Set<FailureClass> classes,
        Optional<Duration> olderThan,
        Optional<String> errorType,
        int limit,
        Optional<Instant> arrivedFrom,
        Optional<Instant> arrivedBefore) {

    public QuarantineQuery {
        states =
                Collections.unmodifiableSet(states == null || states.isEmpty() ? unresolved() : EnumSet.copyOf(states));
        classes = Collections.unmodifiableSet(
                classes == null || classes.isEmpty() ? EnumSet.noneOf(FailureClass.class) : EnumSet.copyOf(classes));
        Objects.requireNonNull(sourceQueue, "sourceQueue");
        Objects.requireNonNull(olderThan, "olderThan");
        Objects.requireNonNull(errorType, "errorType");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
        Objects.requireNonNull(arrivedFrom, "arrivedFrom");
        Objects.requireNonNull(arrivedBefore, "arrivedBefore");
        if (arrivedFrom.isPresent()
                && arrivedBefore.isPresent()
                && arrivedBefore.get().isBefore(arrivedFrom.get())) {
            throw new IllegalArgumentException("the arrival window ends before it starts: from " + arrivedFrom.get()
                    + " to " + arrivedBefore.get());
        }
    }

    /** A query of any arrival time. */
    public QuarantineQuery(
            Optional<String> sourceQueue,
            Set<QuarantineState> states,
            Set<FailureClass> classes,
            Optional<Duration> olderThan,
            Optional<String> errorType,
            int limit) {
        this(sourceQueue, states, classes, olderThan, errorType, limit, Optional.empty(), Optional.empty());
    }

    /** Everything unresolved, up to {@code limit}. */
    public static QuarantineQuery waiting(int limit) {
        return new QuarantineQuery(Optional.empty(), unresolved(), Set.of(), Optional.empty(), Optional.empty(), limit);
    }

    public static Set<QuarantineState> unresolved() {
        Set<QuarantineState> states = EnumSet.noneOf(QuarantineState.class);
        for (QuarantineState s : QuarantineState.values()) {
            if (!s.resolved()) {
                states.add(s);
            }
        }
        return states;
    }

    /** Whether {@code r} matches everything but the queue and the state (which the ledger query selects). */
    public boolean matches(QuarantineRecord r, Instant now) {
        return (classes.isEmpty() || classes.contains(r.classification().failureClass()))
                && errorType.map(t -> t.equals(r.classification().errorType())).orElse(true)
                && olderThan.map(age -> r.age(now).compareTo(age) > 0).orElse(true)
                && arrivedFrom.map(from -> !r.arrivedAt().isBefore(from)).orElse(true)
                && arrivedBefore.map(before -> r.arrivedAt().isBefore(before)).orElse(true);
    }
}
