package dev.redrive.testing.replay;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.replay.ReplaySender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A replay sender fake that records what was sent. As on SQS, a queue named {@code *.fifo} takes no per-message delay.
 */
public final class RecordingReplaySender implements ReplaySender {

    /** One message sent, and how long after its send it becomes visible. */
    public record Sent(
            String queue, String body, Map<String, MessageAttribute> attributes, String messageId, Duration delay) {

        /** The text of its String and Number attributes. */
        public Map<String, String> stringAttributes() {
            return MessageAttribute.strings(attributes);
        }
    }

    private final List<Sent> sent = new ArrayList<>();
    private int failSends;

    @Override
    public synchronized String send(String sourceQueue, String body, Map<String, MessageAttribute> attributes) {
        return send(sourceQueue, new Outgoing(body, attributes));
    }

    private String send(String sourceQueue, Outgoing m) {
        if (failSends > 0) {
            failSends--;
            throw new IllegalStateException("send to " + sourceQueue + " failed (simulated)");
        }
        String id = "replayed-" + (sent.size() + 1);
        sent.add(new Sent(sourceQueue, m.body(), Map.copyOf(m.attributes()), id, m.delay()));
        return id;
    }

    private int batches;

    @Override
    public synchronized List<String> sendAll(String sourceQueue, List<Outgoing> messages) {
        batches++;
        List<String> ids = new ArrayList<>();
        for (Outgoing m : messages) {
            ids.add(send(sourceQueue, m));
        }
        return ids;
    }

    @Override
    public boolean takesDelays(String sourceQueue) {
        return !sourceQueue.endsWith(".fifo");
    }

    /** The next {@code n} sends throw, as a send whose connection drops does. */
    public synchronized void failNextSends(int n) {
        failSends = n;
    }

    /** How many batch sends were made. */
    public synchronized int batches() {
        return batches;
    }

    public synchronized List<Sent> sent() {
        return List.copyOf(sent);
    }
}
