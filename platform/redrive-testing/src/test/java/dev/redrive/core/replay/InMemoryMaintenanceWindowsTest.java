package dev.redrive.core.replay;

import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import dev.redrive.testing.replay.InMemoryMaintenanceWindows;
import dev.redrive.testing.replay.MaintenanceWindowsContract;

class InMemoryMaintenanceWindowsTest extends MaintenanceWindowsContract {
    private final InMemoryBreakerStore breakers = new InMemoryBreakerStore();
    private final InMemoryMaintenanceWindows windows = new InMemoryMaintenanceWindows(breakers);

    @Override
    protected MaintenanceWindows windows() {
        return windows;
    }

    @Override
    protected BreakerStore breakers() {
        return breakers;
    }
}
