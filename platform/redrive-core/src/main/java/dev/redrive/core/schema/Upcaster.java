package dev.redrive.core.schema;

import java.util.Map;

/**
 * A safe, registered transformation of one event type from one schema version to the next, on the JSON tree as plain
 * maps and lists. Safe means: no information is invented; a field the new version needs is derived from the old one.
 */
public interface Upcaster {

    String eventType();

    int fromVersion();

    /** The version it produces; one step at a time. */
    default int toVersion() {
        return fromVersion() + 1;
    }

    /** Returns the event in {@link #toVersion()}; never mutates {@code event}. */
    Map<String, Object> upcast(Map<String, Object> event);
}
