package dev.redrive.core.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The in-memory fake of the maintenance window store. */
public final class InMemoryMaintenanceWindows implements MaintenanceWindows {
    private final Map<String, MaintenanceWindow> windows = new LinkedHashMap<>();

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
}
