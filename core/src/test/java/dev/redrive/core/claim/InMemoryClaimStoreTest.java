package dev.redrive.core.claim;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

class InMemoryClaimStoreTest extends ClaimStoreContract<InMemoryClaimStore.Write> {

    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();

    @Override
    protected TransactionalClaimStore<InMemoryClaimStore.Write> newStore() {
        return new InMemoryClaimStore();
    }

    @Override
    protected InMemoryClaimStore.Write increment(String counterId, long amount) {
        return () -> counters.computeIfAbsent(counterId, k -> new AtomicLong()).addAndGet(amount);
    }

    @Override
    protected InMemoryClaimStore.Write writeWhoseConditionFails(String counterId) {
        return new InMemoryClaimStore.Write() {
            @Override
            public boolean conditionHolds() {
                return false;
            }

            @Override
            public void apply() {
                throw new AssertionError("a write whose condition failed must not be applied");
            }
        };
    }

    @Override
    protected long counter(String counterId) {
        AtomicLong c = counters.get(counterId);
        return c == null ? 0 : c.get();
    }
}
