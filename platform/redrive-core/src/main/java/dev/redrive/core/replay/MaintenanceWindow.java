package dev.redrive.core.replay;

import java.time.Instant;
import java.util.Objects;

/**
 * A pre-approved maintenance window: while it lasts, TRANSIENT failures of {@code dependency} are expected, and the
 * dead letters they caused may be replayed by the automation without a person.
 *
 * @param id         stable identifier
 * @param dependency the dependency it covers, as failures name it ("mail-provider")
 * @param start      inclusive
 * @param end        exclusive
 * @param approvedBy who approved it
 * @param reason     why (the change ticket, the vendor notice)
 * @param holdsBreaker whether it holds its dependency's circuit breaker OPEN while it lasts: from its start (at once
 *                   when added while it lasts, else at the sweeper's first run after its start) to its end, after
 *                   which one probe decides
 */
public record MaintenanceWindow(
        String id,
        String dependency,
        Instant start,
        Instant end,
        String approvedBy,
        String reason,
        boolean holdsBreaker) {

    /** A window that does not hold its dependency's breaker. */
    public MaintenanceWindow(
            String id, String dependency, Instant start, Instant end, String approvedBy, String reason) {
        this(id, dependency, start, end, approvedBy, reason, false);
    }

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

    /** This window, holding its dependency's breaker or not. */
    public MaintenanceWindow withHoldsBreaker(boolean holds) {
        return new MaintenanceWindow(id, dependency, start, end, approvedBy, reason, holds);
    }

    public boolean covers(String failedDependency, Instant at) {
        return dependency.equals(failedDependency) && lastsAt(at);
    }

    /**
     * The id a window gets when the person gives none: {@code w-<start as yyyyMMdd-HHmm>-<4 random hex digits>}.
     */
    public static String generatedId(Instant start) {
        return "w-"
                + start.toString()
                        .substring(0, 16)
                        .replace("-", "")
                        .replace("T", "-")
                        .replace(":", "")
                + "-"
                + java.util.UUID.randomUUID().toString().substring(0, 4);
    }

    /** Whether {@code at} falls inside it: from its start (inclusive) to its end (exclusive). */
    public boolean lastsAt(Instant at) {
        return !at.isBefore(start) && at.isBefore(end);
    }
}
