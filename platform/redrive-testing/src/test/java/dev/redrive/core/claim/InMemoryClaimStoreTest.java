package dev.redrive.core.claim;

import dev.redrive.testing.claim.ClaimStoreContract;
import dev.redrive.testing.claim.InMemoryClaimStore;
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

    @Override
    protected InMemoryClaimStore.Write insertOnce(String counterId) {
        return new InMemoryClaimStore.Write() {
            @Override
            public boolean conditionHolds() {
                return !counters.containsKey(counterId);
            }

            @Override
            public void apply() {
                counters.put(counterId, new AtomicLong(1));
            }
        };
    }

    @Override
    protected InMemoryClaimStore.Write fencedSet(String counterId, long token) {
        return new InMemoryClaimStore.Write() {
            @Override
            public boolean conditionHolds() {
                return counter(counterId) < token;
            }

            @Override
            public void apply() {
                counters.put(counterId, new AtomicLong(token));
            }
        };
    }

    @Override
    protected void seedCounter(String counterId, long value) {
        counters.put(counterId, new AtomicLong(value));
    }

    @Override
    protected void nextTransactionMeetsAConflictOn(ConflictOn where) {
        ((InMemoryClaimStore) store).conflictOnNextTransaction(where == ConflictOn.CLAIM);
    }

    @Override
    protected void storeWithoutVersion(ClaimRecord record) {
        ((InMemoryClaimStore) store).put(record);
    }
}
