package dev.redrive.core.replay;

import java.util.List;
import java.util.Optional;

/** The maintenance window port: windows are data that operators manage. */
public interface MaintenanceWindows {

    void add(MaintenanceWindow window);

    /** Removes the window; returns false when there was none with that id. */
    boolean remove(String id);

    List<MaintenanceWindow> list();

    Optional<MaintenanceWindow> find(String id);
}
