package dev.redrive.testing.replay;

import dev.redrive.core.replay.PayloadStore;
import java.util.HashMap;
import java.util.Map;

/** The in-memory fake of the payload store. */
public final class InMemoryPayloadStore implements PayloadStore {
    private final Map<String, String> bodies = new HashMap<>();

    @Override
    public synchronized String put(String quarantineId, String body) {
        String ref = "bodies/" + quarantineId;
        bodies.put(ref, body);
        return ref;
    }

    @Override
    public synchronized String get(String reference) {
        String body = bodies.get(reference);
        if (body == null) {
            throw new IllegalStateException("no payload stored at " + reference);
        }
        return body;
    }
}
