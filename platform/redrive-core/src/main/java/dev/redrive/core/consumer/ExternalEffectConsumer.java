package dev.redrive.core.consumer;

/**
 * A consumer whose effect is outside the claim store (an email, an HTTP call). The effect runs after the claim and
 * before completion; it receives the idempotency key and fencing token to pass downstream, so that even the rare
 * worker that stalls past its lease cannot make the downstream apply twice.
 */
public non-sealed interface ExternalEffectConsumer<E> extends IdempotentConsumer<E> {

    /**
     * Applies the effect. Returns a short summary stored on the completed claim (never the payload), or null.
     * Throw to fail: the exception is classified by {@link #classifier()}.
     */
    String apply(E event, EffectContext context) throws Exception;

    @Override
    default <R> R match(Cases<E, R> cases) {
        return cases.external(this);
    }
}
