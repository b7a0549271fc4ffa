package dev.redrive.core.replay;

import dev.redrive.core.breaker.BreakerWrite;
import java.util.List;
import java.util.Optional;

/**
 * The maintenance window port: windows are data that operators manage. A window that holds its dependency's circuit
 * breaker is changed together with that breaker ({@link #change}), so the hold never disagrees with the windows: the
 * windows are kept where the breakers are (on AWS, in the same control table).
 */
public interface MaintenanceWindows {

    void add(MaintenanceWindow window);

    /** Removes the window; returns false when there was none with that id. */
    boolean remove(String id);

    List<MaintenanceWindow> list();

    Optional<MaintenanceWindow> find(String id);

    /**
     * Writes {@code change} and the {@code breakers}' transitions in one atomic write: the window only if it is still
     * {@link WindowChange#expected()}, each breaker only if its token is still {@link BreakerWrite#expectedToken()}; all
     * of them, or none (on DynamoDB, one TransactWriteItems in the control table).
     *
     * @return false when the window or a breaker changed since they were read: nothing was written
     * @throws IllegalStateException when these windows are not kept with the breakers (nothing is written)
     */
    boolean change(WindowChange change, List<BreakerWrite> breakers);
}
