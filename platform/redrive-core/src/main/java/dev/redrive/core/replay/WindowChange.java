package dev.redrive.core.replay;

import java.util.Objects;
import java.util.Optional;

/**
 * A change of one maintenance window, conditional on the window as it was read: adds it ({@code expected} empty),
 * replaces it, or removes it ({@code next} empty).
 *
 * @param id       the window's id
 * @param expected the window as read (empty: there was none)
 * @param next     the window to store (empty: remove it)
 */
public record WindowChange(String id, Optional<MaintenanceWindow> expected, Optional<MaintenanceWindow> next) {

    public WindowChange {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(next, "next");
        if (expected.isPresent() && !expected.get().id().equals(id)
                || next.isPresent() && !next.get().id().equals(id)) {
            throw new IllegalArgumentException(
                    "a change of window " + id + " names another window: " + expected + " -> " + next);
        }
    }

    /** Whether the stored window {@code stored} (empty: none) is still the one this change was decided from. */
    public boolean expects(Optional<MaintenanceWindow> stored) {
        return expected.equals(stored);
    }
}
