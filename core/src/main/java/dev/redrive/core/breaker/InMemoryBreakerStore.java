package dev.redrive.core.breaker;

import java.util.HashMap;
import java.util.Map;

/** The in-memory fake of the breaker store: the same rules as DynamoDB under one lock. */
public final class InMemoryBreakerStore implements BreakerStore {

    private final Map<String, BreakerState> breakers = new HashMap<>();

    @Override
    public synchronized BreakerState read(String dependency) {
        return breakers.getOrDefault(dependency, BreakerState.closed());
    }

    @Override
    public synchronized boolean transition(String dependency, long expectedToken, BreakerState next) {
        if (read(dependency).token() != expectedToken) {
            return false;
        }
        breakers.put(dependency, next);
        return true;
    }
}
