package dev.redrive.testing.sweeper;

import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.core.sweeper.DeadLetterSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The in-memory fake of a dead-letter queue: letters stay until deleted; a received letter is invisible until the
 * next {@link #redeliverUndeleted()} (standing in for its visibility timeout).
 */
public final class InMemoryDeadLetterSource implements DeadLetterSource {

    private final Map<String, Map<String, ArrivedDeadLetter>> queues = new HashMap<>();
    private final Set<String> inFlight = new HashSet<>();
    private int failDeletes;
    private int receiveCalls;

    public synchronized void add(String queue, ArrivedDeadLetter letter) {
        queues.computeIfAbsent(queue, q -> new LinkedHashMap<>()).put(letter.messageId(), letter);
    }

    @Override
    public synchronized List<ArrivedDeadLetter> receive(String queue) {
        receiveCalls++;
        List<ArrivedDeadLetter> batch = new ArrayList<>();
        for (ArrivedDeadLetter l : queues.getOrDefault(queue, Map.of()).values()) {
            if (batch.size() == 10) {
                break;
            }
            if (inFlight.add(l.messageId())) {
                batch.add(l);
            }
        }
        return batch;
    }

    @Override
    public synchronized void delete(String queue, List<ArrivedDeadLetter> letters) {
        if (failDeletes > 0 && !letters.isEmpty()) {
            failDeletes--;
            throw new IllegalStateException("delete failed (simulated crash before the delete)");
        }
        for (ArrivedDeadLetter l : letters) {
            queues.getOrDefault(queue, new HashMap<>()).remove(l.messageId());
            inFlight.remove(l.messageId());
        }
    }

    @Override
    public synchronized QueueDepth approximateDepth(String queue) {
        Map<String, ArrivedDeadLetter> letters = queues.getOrDefault(queue, Map.of());
        long inFlightHere = letters.keySet().stream().filter(inFlight::contains).count();
        return new QueueDepth(letters.size() - inFlightHere, inFlightHere, 0);
    }

    /** The visibility timeout of every undeleted letter ends. */
    public synchronized void redeliverUndeleted() {
        inFlight.clear();
    }

    /** The next {@code n} deletes fail, as if the sweeper died right before them. */
    public synchronized void failNextDeletes(int n) {
        failDeletes = n;
    }

    public synchronized int depth(String queue) {
        return queues.getOrDefault(queue, Map.of()).size();
    }

    public synchronized int receiveCalls() {
        return receiveCalls;
    }
}
