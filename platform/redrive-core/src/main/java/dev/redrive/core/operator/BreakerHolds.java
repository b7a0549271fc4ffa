package dev.redrive.core.operator;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.BreakerWrite;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.core.names.UnknownName;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.WindowChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Maintenance windows holding their dependencies' circuit breakers OPEN: the one place a hold is written. A hold is
 * derived from the windows that exist when it is written ({@link CircuitBreakerRules#withHold}: until the latest end of
 * the windows of the dependency that hold it and last now), never from a window alone, so replacing, removing or
 * overlapping windows leaves the breaker held exactly as the windows still ask.
 *
 * <p>Every write reads the breaker first, then the windows, and writes conditionally on the breaker's token. A person's
 * change of a window goes with the breaker's new hold in one atomic write ({@link MaintenanceWindows#change}), and a
 * change of a window that held its breaker writes the breaker even when its hold stays the same (the next token): so a
 * hold derived from windows read before that change (the sweeper's, say) can no longer be written. A write that fails
 * writes nothing, so the window is still there to change again.
 */
public final class BreakerHolds {

    private static final int ATTEMPTS = 5;

    private final BreakerStore store;
    private final MaintenanceWindows windows;
    private final List<String> dependencies;

    /**
     * Holds on {@code store}, for the breakers of {@code dependencies} (the ones the consumers share), as
     * {@code windows} ask; the windows are kept with the breakers, so that a window's change and its hold are written
     * together.
     */
    public BreakerHolds(BreakerStore store, MaintenanceWindows windows, List<String> dependencies) {
        this.store = Objects.requireNonNull(store, "store");
        this.windows = Objects.requireNonNull(windows, "windows");
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

    /** The windows that hold {@code dependency}'s breaker at {@code now}: those that hold it and last now. */
    public static List<MaintenanceWindow> holders(List<MaintenanceWindow> windows, String dependency, Instant now) {
        return windows.stream()
                .filter(w -> w.holdsBreaker() && w.dependency().equals(dependency) && w.lastsAt(now))
                .toList();
    }

    /**
     * The window that sets {@code dependency}'s hold at {@code now}: of those that hold its breaker and last now, the
     * one that ends last; empty when none does.
     */
    public static Optional<MaintenanceWindow> holder(List<MaintenanceWindow> windows, String dependency, Instant now) {
        return windows.stream()
                .filter(w -> w.holdsBreaker() && w.dependency().equals(dependency) && w.lastsAt(now))
                .max(Comparator.comparing(MaintenanceWindow::end).thenComparing(MaintenanceWindow::id));
    }

    /**
     * Adds {@code w}, or replaces the window with its id, with the holds of the breakers it holds (or held) as the
     * windows then ask: at once when it holds its breaker and lasts now; one that starts later is held by the sweeper.
     *
     * @throws IllegalArgumentException when it holds a breaker that is not shared here: nothing is stored
     * @throws IllegalStateException    when the window or its breaker changed under five attempts: nothing is stored
     */
    public void put(MaintenanceWindow w, Instant now) {
        if (w.holdsBreaker()) {
            requireBreakerOf(w);
        }
        change(
                w.id(),
                old -> Optional.of(w),
                now,
                old -> "maintenance window " + w.id() + " was " + (old.isEmpty() ? "added" : "replaced"));
    }

    /**
     * Removes window {@code id}; if it held its breaker, the breaker is held as the other windows still ask (released
     * when none does: the next call probes).
     *
     * @return false when there was no such window
     */
    public boolean remove(String id, Instant now) {
        return change(id, old -> Optional.empty(), now, old -> "maintenance window " + id + " was removed");
    }

    /**
     * Ends the hold of {@code dependency}'s breaker now, at {@code person}'s request: each window that holds it and lasts
     * stops holding it (it still approves replays), and the breaker is written as the windows then ask: with none
     * holding it, OPEN until now, so the next call probes. A window that starts later still holds it from its start.
     *
     * @return the ids of the windows that stopped holding it
     * @throws IllegalArgumentException when no breaker of {@code dependency} is shared here
     */
    public List<String> release(String dependency, Instant now, String person) {
        requireShared(dependency);
        List<String> stopped = new ArrayList<>();
        for (MaintenanceWindow w : windows.list()) {
            if (w.holdsBreaker() && w.dependency().equals(dependency) && w.lastsAt(now)) {
                boolean changed = change(
                        w.id(),
                        old -> old.map(stored -> stored.withHoldsBreaker(false)),
                        now,
                        old -> "maintenance window " + w.id() + " stopped holding it (released by " + person + ")");
                if (changed) {
                    stopped.add(w.id());
                }
            }
        }
        settle(dependency, now, "released by " + person);
        return stopped;
    }

    /**
     * A probe of {@code dependency}'s breaker, asked for by {@code person} ({@link CircuitBreakerRules#probeNow}): its
     * open period ends now, so the next call, a consumer's or a replay's, probes.
     *
     * @return the breaker as it is now (unchanged when a probe was due already)
     * @throws IllegalArgumentException when no breaker of it is shared here, it is CLOSED, or maintenance windows hold it
     *                                  (naming them)
     */
    public BreakerState probe(String dependency, Instant now, String person) {
        requireShared(dependency);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            BreakerState current = store.read(dependency);
            if (current.held() && current.openUntil().isAfter(now)) {
                List<String> holding = windows.list().stream()
                        .filter(w -> w.holdsBreaker() && w.dependency().equals(dependency) && w.lastsAt(now))
                        .map(MaintenanceWindow::id)
                        .toList();
                throw new IllegalArgumentException("the " + dependency + " breaker is held OPEN until "
                        + current.openUntil() + " by maintenance windows " + holding + ": their hold ends first");
            }
            if (current.status() == BreakerState.Status.CLOSED) {
                throw new IllegalArgumentException(
                        "the " + dependency + " breaker is CLOSED: calls go through, there is nothing to probe");
            }
            BreakerState next = CircuitBreakerRules.probeNow(current, now);
            if (next.equals(current)) {
                return current;
            }
            String reason = "a probe was asked for by " + person + ": the next call probes";
            if (store.transition(
                    dependency, current.token(), next, BreakerTransition.of(current.status(), next, now, reason))) {
                return next;
            }
        }
        throw new IllegalStateException("the " + dependency + " breaker changed under " + ATTEMPTS + " attempts in a "
                + "row; nothing was written: try again");
    }

    private void requireShared(String dependency) {
        if (!dependencies.contains(dependency)) {
            String hint = UnknownName.didYouMean(dependency, dependencies);
            throw new IllegalArgumentException("no circuit breaker of " + dependency + " is shared here"
                    + (hint.isEmpty() ? "" : ": " + hint) + " (the breakers are " + dependencies + ")");
        }
    }

    /**
     * Has {@code w} hold its dependency's breaker from now to its end (it is stored holding it), and holds it.
     *
     * @return the breaker as held (unchanged if the windows held it so already)
     * @throws IllegalArgumentException when no breaker of its dependency is shared here, or the window does not last
     *                                  at {@code now}
     */
    public BreakerState hold(MaintenanceWindow w, Instant now) {
        requireBreakerOf(w);
        if (!w.lastsAt(now)) {
            throw new IllegalArgumentException("window " + w.id() + " runs from " + w.start() + " to " + w.end()
                    + "; a breaker is held open only while its window lasts (a window that holds its breaker from its "
                    + "start is added with it: the sweeper holds it at its first run after the start)");
        }
        put(w.withHoldsBreaker(true), now);
        settle(w.dependency(), now, "maintenance window " + w.id() + " holds it");
        return store.read(w.dependency());
    }

    /**
     * Holds every shared breaker as the windows that exist ask at {@code now}, each read after its breaker: a window
     * that holds its breaker and has started is held (the sweeper's first run after its start), and a hold no window
     * asks for any more ends. Writes only what changes.
     *
     * @return the ids of the windows whose hold this call wrote
     * @throws IllegalStateException when a breaker changed under five attempts in a row (the others are still settled)
     */
    public List<String> holdDue(Instant now) {
        List<String> held = new ArrayList<>();
        RuntimeException first = null;
        for (String dependency : dependencies) {
            try {
                settle(dependency, now, "no maintenance window holds it any more")
                        .ifPresent(held::add);
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return held;
    }

    /**
     * Writes {@code dependency}'s breaker as the windows ask now, if that changes it.
     *
     * @param cause why a hold that ends, ends (for the breaker's history)
     * @return the id of the window whose hold was written
     */
    Optional<String> settle(String dependency, Instant now, String cause) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            BreakerState current = store.read(dependency);
            Optional<MaintenanceWindow> holder = holder(windows.list(), dependency, now);
            BreakerState wanted = CircuitBreakerRules.withHold(current, now, holder.map(MaintenanceWindow::end));
            if (wanted.equals(current)) {
                return Optional.empty();
            }
            if (store.transition(dependency, current.token(), wanted, entry(current, wanted, holder, now, cause))) {
                return wanted.held() ? holder.map(MaintenanceWindow::id) : Optional.empty();
            }
        }
        throw new IllegalStateException("the " + dependency + " breaker changed under " + ATTEMPTS + " attempts in a "
                + "row to hold it as its maintenance windows ask; nothing was written, the next run tries again");
    }

    /**
     * Changes window {@code id} from the stored one to {@code nextOf} it (empty: removes it) with the holds it moves, in
     * one atomic write; {@code causeOf} it says why, for the breakers' history.
     *
     * @return false when there was no window to remove or change
     */
    private boolean change(
            String id,
            Function<Optional<MaintenanceWindow>, Optional<MaintenanceWindow>> nextOf,
            Instant now,
            Function<Optional<MaintenanceWindow>, String> causeOf) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<MaintenanceWindow> old = windows.find(id);
            Optional<MaintenanceWindow> next = nextOf.apply(old);
            if (old.isEmpty() && next.isEmpty()) {
                return false;
            }
            if (old.equals(next)) {
                return true; // nothing to change; its breaker is settled by whoever wrote it, or the next sweep
            }
            Set<String> fenced = holdingDependency(old);
            Set<String> touched = new LinkedHashSet<>(fenced);
            touched.addAll(holdingDependency(next));
            Map<String, BreakerState> read = new LinkedHashMap<>();
            touched.forEach(d -> read.put(d, store.read(d))); // the breakers first, then the windows
            List<MaintenanceWindow> after = new ArrayList<>(windows.list());
            after.removeIf(w -> w.id().equals(id));
            next.ifPresent(after::add);
            String cause = causeOf.apply(old);
            List<BreakerWrite> writes = new ArrayList<>();
            read.forEach((d, current) -> {
                Optional<MaintenanceWindow> holder = holder(after, d, now);
                BreakerState wanted = CircuitBreakerRules.withHold(current, now, holder.map(MaintenanceWindow::end));
                if (!wanted.equals(current) || fenced.contains(d)) {
                    BreakerState written = wanted.equals(current) ? current.rewritten() : wanted;
                    writes.add(
                            new BreakerWrite(d, current.token(), written, entry(current, written, holder, now, cause)));
                }
            });
            if (windows.change(new WindowChange(id, old, next), writes)) {
                return true;
            }
        }
        throw new IllegalStateException("maintenance window " + id + " or its breaker changed under " + ATTEMPTS
                + " attempts in a row; nothing was written: try again");
    }

    /** The shared breaker {@code w} holds, if it holds one. */
    private Set<String> holdingDependency(Optional<MaintenanceWindow> w) {
        return w.filter(MaintenanceWindow::holdsBreaker)
                .map(MaintenanceWindow::dependency)
                .filter(dependencies::contains)
                .map(Set::of)
                .orElse(Set.of());
    }

    /** The history entry of writing {@code next} over {@code current}: the hold and its window, or why it ends. */
    private static BreakerTransition entry(
            BreakerState current, BreakerState next, Optional<MaintenanceWindow> holder, Instant now, String cause) {
        String reason;
        if (next.token() == current.token() + 1 && next.equals(current.rewritten())) {
            reason = cause + ": the breaker is unchanged";
        } else if (next.held()) {
            MaintenanceWindow w = holder.orElseThrow();
            reason = "held open by maintenance window " + w.id() + " until its end, " + w.end();
        } else {
            reason = cause + ": its hold ends, the next call probes";
        }
        return BreakerTransition.of(current.status(), next, now, reason);
    }
}
