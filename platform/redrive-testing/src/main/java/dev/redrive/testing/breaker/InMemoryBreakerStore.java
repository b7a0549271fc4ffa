package dev.redrive.testing.breaker;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The in-memory fake of the breaker store: the same rules as DynamoDB under one lock. */
public final class InMemoryBreakerStore implements BreakerStore {

    private final Map<String, BreakerState> breakers = new HashMap<>();
    private final Map<String, Deque<BreakerTransition>> histories = new HashMap<>();

    @Override
    public synchronized BreakerState read(String dependency) {
        return breakers.getOrDefault(dependency, BreakerState.closed());
    }

    @Override
    public synchronized boolean transition(
            String dependency, long expectedToken, BreakerState next, BreakerTransition entry) {
        entry.requireDescribes(expectedToken, next);
        if (read(dependency).token() != expectedToken) {
            return false;
        }
        breakers.put(dependency, next);
        Deque<BreakerTransition> history = histories.computeIfAbsent(dependency, d -> new ArrayDeque<>());
        history.addFirst(entry);
        while (history.size() > BreakerTransition.KEPT) {
            history.removeLast();
        }
        return true;
    }

    @Override
    public synchronized List<BreakerTransition> history(String dependency) {
        return List.copyOf(histories.getOrDefault(dependency, new ArrayDeque<>()));
    }
}
