package dev.redrive.testing.consumer;

import dev.redrive.core.consumer.QueueGateway;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The in-memory fake of the queue gateway: records every call so tests can assert on what would have been sent, and
 * can be told to fail dead-letter sends and visibility changes for given message ids.
 */
public final class InMemoryQueueGateway implements QueueGateway {

    private final List<List<VisibilityChange>> visibilityCalls = Collections.synchronizedList(new ArrayList<>());
    private final List<DeadLetter> deadLetters = Collections.synchronizedList(new ArrayList<>());
    private final Set<String> failSendsFor = Collections.synchronizedSet(new HashSet<>());
    private final Set<String> failVisibilityFor = Collections.synchronizedSet(new HashSet<>());

    @Override
    public Set<String> changeVisibility(String sourceQueue, List<VisibilityChange> changes) {
        for (int i = 0; i < changes.size(); i += 10) {
            visibilityCalls.add(List.copyOf(changes.subList(i, Math.min(changes.size(), i + 10))));
        }
        Set<String> failed = new HashSet<>();
        for (VisibilityChange c : changes) {
            if (failVisibilityFor.contains(c.messageId())) {
                failed.add(c.messageId());
            }
        }
        return failed;
    }

    /** Makes the visibility change of {@code messageId} fail (a receipt handle gone stale, an unreachable queue). */
    public void failVisibilityChangesFor(String messageId) {
        failVisibilityFor.add(messageId);
    }

    @Override
    public Set<String> deadLetter(String sourceQueue, List<DeadLetter> letters) {
        Set<String> failed = new HashSet<>();
        for (DeadLetter letter : letters) {
            if (failSendsFor.contains(letter.message().messageId())) {
                failed.add(letter.message().messageId());
            } else {
                deadLetters.add(letter);
            }
        }
        return failed;
    }

    /** Makes the dead-letter send of {@code messageId} fail. */
    public void failDeadLetterSendsFor(String messageId) {
        failSendsFor.add(messageId);
    }

    /** Each batch call made, as the changes it carried. */
    public List<List<VisibilityChange>> visibilityCalls() {
        synchronized (visibilityCalls) {
            return List.copyOf(visibilityCalls);
        }
    }

    public List<DeadLetter> deadLetters() {
        synchronized (deadLetters) {
            return List.copyOf(deadLetters);
        }
    }
}
