package dev.redrive.core.operator;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.core.replay.MaintenanceWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Maintenance windows holding their dependencies' circuit breakers OPEN: the one place a hold is written, by a person
 * through the operator port (a window added while it lasts, or held explicitly) and by the sweeper, which holds every
 * window that asks for it at its first run after the window's start. A hold is one conditional write of the breaker
 * item, kept in its history with the window's id; a breaker already held to the window's end is not written again.
 */
public final class BreakerHolds {

    private final BreakerStore store;
    private final List<String> dependencies;

    /** Holds on {@code store}, for the breakers of {@code dependencies} (the ones the consumers share). */
    public BreakerHolds(BreakerStore store, List<String> dependencies) {
        this.store = Objects.requireNonNull(store, "store");
        this.dependencies = List.copyOf(dependencies);
    }

    /** The dependencies whose breakers are shared here. */
    public List<String> dependencies() {
        return dependencies;
    }

    /** The store of the breakers. */
    BreakerStore store() {
        return store;
    }

    /**
     * Refuses a window that asks to hold a breaker that is not shared here.
     *
     * @throws IllegalArgumentException naming the breakers there are
     */
    public void requireBreakerOf(MaintenanceWindow w) {
        if (!dependencies.contains(w.dependency())) {
            throw new IllegalArgumentException("no circuit breaker of " + w.dependency() + " is shared here (the "
                    + "breakers are " + dependencies + "); window " + w.id() + " cannot hold one open");
        }
    }

    /**
     * Holds {@code w}'s breaker OPEN until the window's end, now.
     *
     * @return the breaker as held (unchanged if it was already open past the window's end)
     * @throws IllegalArgumentException when no breaker of its dependency is shared here, or the window does not last
     *                                  at {@code now}
     */
    public BreakerState hold(MaintenanceWindow w, Instant now) {
        return holding(w, now).state();
    }

    private Written holding(MaintenanceWindow w, Instant now) {
        requireBreakerOf(w);
        if (!w.lastsAt(now)) {
            throw new IllegalArgumentException("window " + w.id() + " runs from " + w.start() + " to " + w.end()
                    + "; a breaker is held open only while its window lasts (a window that holds its breaker from its "
                    + "start is added with it: the sweeper holds it at its first run after the start)");
        }
        return transition(
                w.dependency(),
                now,
                current -> CircuitBreakerRules.heldOpen(current, now, w.end()),
                "held open by maintenance window " + w.id() + " until its end, " + w.end());
    }

    /** Ends {@code w}'s hold now (the window was removed): the next call probes. A breaker it did not hold is left. */
    public void release(MaintenanceWindow w, Instant now) {
        if (!dependencies.contains(w.dependency())) {
            return;
        }
        transition(
                w.dependency(),
                now,
                current -> CircuitBreakerRules.releaseHold(current, now, w.end()),
                "maintenance window " + w.id() + " was removed: its hold ends, the next call probes");
    }

    /**
     * Holds the breaker of every window in {@code windows} that holds its breaker and lasts at {@code now}, unless it is
     * held to the window's end already (then nothing is written).
     *
     * @return the ids of the windows whose hold this call wrote
     * @throws IllegalStateException when a breaker changed under five attempts in a row (the others are still held)
     */
    public List<String> holdDue(List<MaintenanceWindow> windows, Instant now) {
        List<String> held = new ArrayList<>();
        RuntimeException first = null;
        for (MaintenanceWindow w : windows) {
            if (!w.holdsBreaker() || !w.lastsAt(now) || !dependencies.contains(w.dependency())) {
                continue;
            }
            try {
                if (holding(w, now).wrote()) {
                    held.add(w.id());
                }
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
        return held;
    }

    /** The breaker after a hold or release, and whether that call wrote it (false: it was so already). */
    private record Written(BreakerState state, boolean wrote) {}

    /** Writes {@code next} of the breaker as read, again from a fresh read when another sandbox wrote first. */
    private Written transition(String dependency, Instant now, UnaryOperator<BreakerState> next, String reason) {
        for (int attempt = 0; attempt < 5; attempt++) {
            BreakerState current = store.read(dependency);
            BreakerState wanted = next.apply(current);
            if (wanted.equals(current)) {
                return new Written(current, false);
            }
            if (store.transition(
                    dependency, current.token(), wanted, BreakerTransition.of(current.status(), wanted, now, reason))) {
                return new Written(wanted, true);
            }
        }
        throw new IllegalStateException("the " + dependency + " breaker changed under five attempts in a row to "
                + "write it; nothing was held or released");
    }
}
