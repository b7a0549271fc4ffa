package dev.redrive.core.replay;

import java.util.Map;

/** Sends a replayed message back to its source queue. */
public interface ReplaySender {

    /**
     * Sends {@code body} with {@code attributes} to {@code sourceQueue} (a name).
     *
     * @return the new message id
     */
    String send(String sourceQueue, String body, Map<String, String> attributes);
}
