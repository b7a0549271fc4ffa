package dev.redrive.core.consumer;

import java.util.List;

/**
 * A consumer whose effect is a write to the same store as the claims: claim, effect and completion commit as one
 * transaction, so the effect is exactly once even though the write itself (a counter increment) is not idempotent.
 *
 * @param <W> the store's write type (a DynamoDB {@code TransactWriteItem}, or an in-memory write in tests)
 */
public non-sealed interface TransactionalEffectConsumer<E, W> extends IdempotentConsumer<E> {

    /**
     * The writes that make up the effect. Called once per transaction attempt with that attempt's fencing token;
     * must not have side effects of its own.
     */
    List<W> effectWrites(E event, EffectContext context);

    /** A short summary stored on the completed claim, or null. */
    default String resultSummary(E event) {
        return null;
    }

    @Override
    default <R> R match(Cases<E, R> cases) {
        return cases.transactional(this);
    }
}
