package dev.redrive.core.replay;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the automation may replay without a person: TRANSIENT dead letters of a known dependency whose failures — the
 * first and the last — both fall inside one approved maintenance window of that dependency, once that window is over
 * (replaying into a dependency still under maintenance would only fail again). Everything else waits.
 */
public final class AutoReplayPolicy {

    private AutoReplayPolicy() {}

    /** The window that pre-approves replaying {@code record}, if any. */
    public static Optional<MaintenanceWindow> approvingWindow(
            QuarantineRecord record, List<MaintenanceWindow> windows, Instant now) {
        if (record.classification().failureClass() != FailureClass.TRANSIENT) {
            return Optional.empty();
        }
        String dependency = record.classification().dependency();
        if (dependency == null || record.lastFailedAt() == null) {
            return Optional.empty();
        }
        var first = record.firstFailedAt() == null ? record.lastFailedAt() : record.firstFailedAt();
        return windows.stream()
                .filter(w -> w.covers(dependency, first) && w.covers(dependency, record.lastFailedAt()))
                .filter(w -> !w.end().isAfter(now))
                .findFirst();
    }
}
