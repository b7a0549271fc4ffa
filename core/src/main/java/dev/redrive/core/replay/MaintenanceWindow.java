package dev.redrive.core.replay;

import java.time.Instant;
import java.util.Objects;

/**
 * A pre-approved maintenance window: while it lasts, TRANSIENT failures of {@code dependency} are expected, and the
 * dead letters they caused may be replayed by the automation without a person.
 *
 * @param id         stable identifier
 * @param dependency the dependency it covers, as failures name it ("email-provider")
 * @param start      inclusive
 * @param end        exclusive
 * @param approvedBy who approved it
 * @param reason     why (the change ticket, the vendor notice)
 */
public record MaintenanceWindow(
        String id, String dependency, Instant start, Instant end, String approvedBy, String reason) {

    public MaintenanceWindow {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(dependency, "dependency");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        Objects.requireNonNull(approvedBy, "approvedBy");
        if (id.isBlank() || id.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(
                    "a maintenance window's id is one line of text (no control characters): '" + id.strip() + "'");
        }
        if (dependency.isBlank()) {
            throw new IllegalArgumentException("a maintenance window names the dependency it covers");
        }
        if (!end.isAfter(start)) {
            throw new IllegalArgumentException("the window ends (" + end + ") before it starts (" + start + ")");
        }
        if (approvedBy.isBlank()) {
            throw new IllegalArgumentException("a maintenance window needs the name of who approved it");
        }
        reason = reason == null ? "" : reason;
    }

    public boolean covers(String failedDependency, Instant at) {
        return dependency.equals(failedDependency) && !at.isBefore(start) && at.isBefore(end);
    }
}
