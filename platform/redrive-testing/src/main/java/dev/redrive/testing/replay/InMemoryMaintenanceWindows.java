package dev.redrive.testing.replay;

import dev.redrive.core.breaker.BreakerWrite;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.WindowChange;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The in-memory fake of the maintenance window store. Built with the breakers' fake, a {@link #change} writes the
 * window and the breakers under both locks, as DynamoDB's transaction writes them together.
 */
public final class InMemoryMaintenanceWindows implements MaintenanceWindows {
    private final Map<String, MaintenanceWindow> windows = new LinkedHashMap<>();
    private final InMemoryBreakerStore breakers;

    /** Windows kept apart from any breaker: a change that writes a breaker is refused. */
    public InMemoryMaintenanceWindows() {
        this.breakers = null;
    }

    /** Windows kept with {@code breakers}, so a change writes both as one. */
    public InMemoryMaintenanceWindows(InMemoryBreakerStore breakers) {
        this.breakers = Objects.requireNonNull(breakers, "breakers");
    }

    @Override
    public synchronized void add(MaintenanceWindow window) {
        windows.put(window.id(), window);
    }

    @Override
    public synchronized boolean remove(String id) {
        return windows.remove(id) != null;
    }

    @Override
    public synchronized List<MaintenanceWindow> list() {
        List<MaintenanceWindow> all = new ArrayList<>(windows.values());
        all.sort(Comparator.comparing(MaintenanceWindow::start).thenComparing(MaintenanceWindow::id));
        return all;
    }

    @Override
    public synchronized Optional<MaintenanceWindow> find(String id) {
        return Optional.ofNullable(windows.get(id));
    }

    @Override
    public boolean change(WindowChange change, List<BreakerWrite> writes) {
        requireOneWriteEach(writes);
        if (writes.isEmpty() || breakers == null) {
            if (!writes.isEmpty()) {
                throw new IllegalStateException("these in-memory windows are kept with no breakers; build them with "
                        + "the InMemoryBreakerStore of the breakers "
                        + writes.get(0).dependency() + " is in");
            }
            synchronized (this) {
                return apply(change);
            }
        }
        synchronized (breakers) { // the breakers' own lock first, as every change takes them: one order, no deadlock
            synchronized (this) {
                if (!change.expects(Optional.ofNullable(windows.get(change.id())))) {
                    return false;
                }
                for (BreakerWrite w : writes) {
                    if (breakers.read(w.dependency()).token() != w.expectedToken()) {
                        return false;
                    }
                }
                apply(change);
                for (BreakerWrite w : writes) {
                    if (!breakers.transition(w.dependency(), w.expectedToken(), w.next(), w.entry())) {
                        throw new IllegalStateException("breaker " + w.dependency() + " changed under its own lock");
                    }
                }
                return true;
            }
        }
    }

    private boolean apply(WindowChange change) {
        if (!change.expects(Optional.ofNullable(windows.get(change.id())))) {
            return false;
        }
        change.next().ifPresentOrElse(w -> windows.put(w.id(), w), () -> windows.remove(change.id()));
        return true;
    }

    static void requireOneWriteEach(List<BreakerWrite> writes) {
        Set<String> seen = new HashSet<>();
        for (BreakerWrite w : writes) {
            if (!seen.add(w.dependency())) {
                throw new IllegalArgumentException("one change writes breaker " + w.dependency() + " twice");
            }
        }
    }
}
