package dev.redrive.core.replay;

class InMemoryMaintenanceWindowsTest extends MaintenanceWindowsContract {
    private final InMemoryMaintenanceWindows windows = new InMemoryMaintenanceWindows();

    @Override
    protected MaintenanceWindows windows() {
        return windows;
    }
}
