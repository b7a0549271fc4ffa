package dev.redrive.core.operator;

import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import dev.redrive.testing.operator.WindowHoldsContract;
import dev.redrive.testing.replay.InMemoryMaintenanceWindows;

class InMemoryWindowHoldsTest extends WindowHoldsContract {
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
