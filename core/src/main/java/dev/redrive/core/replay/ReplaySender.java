package dev.redrive.core.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Sends replayed messages back to their source queue. */
public interface ReplaySender {

    /**
     * Sends {@code body} with {@code attributes} to {@code sourceQueue} (a name).
     *
     * @return the new message id
     */
    String send(String sourceQueue, String body, Map<String, String> attributes);

    /**
     * Sends several messages to one queue, in as few calls as the queue allows (ten per batch on SQS).
     *
     * @return one result per message, in order: the new message id, or null when that message was not sent
     */
    default List<String> sendAll(String sourceQueue, List<Outgoing> messages) {
        List<String> ids = new ArrayList<>();
        for (Outgoing m : messages) {
            ids.add(send(sourceQueue, m.body(), m.attributes()));
        }
        return ids;
    }

    /** One message to send. */
    record Outgoing(String body, Map<String, String> attributes) {}
}
