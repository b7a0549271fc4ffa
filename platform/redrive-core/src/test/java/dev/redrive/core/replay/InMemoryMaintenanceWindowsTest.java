package dev.redrive.core.replay;

import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.InMemoryBreakerStore;

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
