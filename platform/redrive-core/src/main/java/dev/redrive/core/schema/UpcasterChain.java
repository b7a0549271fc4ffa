package dev.redrive.core.schema;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Registered upcasters, chained one version at a time from an old version to the current one. */
public final class UpcasterChain {

    private final Map<String, Upcaster> steps = new HashMap<>();

    public UpcasterChain(List<Upcaster> upcasters) {
        for (Upcaster u : upcasters) {
            if (u.toVersion() != u.fromVersion() + 1) {
                throw new IllegalArgumentException("upcasters go one version at a time: " + u.eventType() + " v"
                        + u.fromVersion() + " to v" + u.toVersion());
            }
            if (steps.put(u.eventType() + "@" + u.fromVersion(), u) != null) {
                throw new IllegalArgumentException("two upcasters for " + u.eventType() + " v" + u.fromVersion());
            }
        }
    }

    /**
     * Upcasts {@code event} of {@code eventType} from {@code from} to {@code to}; empty when a step is missing (there is
     * no safe way to get there).
     */
    public Optional<Map<String, Object>> upcast(String eventType, int from, int to, Map<String, Object> event) {
        Map<String, Object> current = event;
        for (int v = from; v < to; v++) {
            Upcaster step = steps.get(eventType + "@" + v);
            if (step == null) {
                return Optional.empty();
            }
            current = step.upcast(current);
        }
        return Optional.of(current);
    }

    /** Whether every step from {@code from} to {@code to} is registered. */
    public boolean canUpcast(String eventType, int from, int to) {
        for (int v = from; v < to; v++) {
            if (!steps.containsKey(eventType + "@" + v)) {
                return false;
            }
        }
        return from <= to;
    }
}
