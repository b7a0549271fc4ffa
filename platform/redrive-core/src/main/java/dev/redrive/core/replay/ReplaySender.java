package dev.redrive.core.replay;

import dev.redrive.core.consumer.MessageAttribute;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Sends replayed messages back to their source queue. */
public interface ReplaySender {

    /**
     * Sends {@code body} with {@code attributes}, each with its type, to {@code sourceQueue} (a name).
     *
     * @return the new message id
     */
    String send(String sourceQueue, String body, Map<String, MessageAttribute> attributes);

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

    /**
     * Whether a message sent to {@code sourceQueue} can be delayed (SQS: a standard queue can, a FIFO queue cannot).
     * Replays to a queue that cannot are paced by sending only the slots due now.
     */
    default boolean takesDelays(String sourceQueue) {
        return true;
    }

    /**
     * One message to send.
     *
     * @param attributes its attributes, each with its type: the original's, and the replay marker
     * @param delay      how long after the send it becomes visible (on SQS: DelaySeconds, in whole seconds)
     */
    record Outgoing(String body, Map<String, MessageAttribute> attributes, Duration delay) {
        public Outgoing {
            attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
            delay = delay == null || delay.isNegative() ? Duration.ZERO : delay;
        }

        public Outgoing(String body, Map<String, MessageAttribute> attributes) {
            this(body, attributes, Duration.ZERO);
        }
    }
}
