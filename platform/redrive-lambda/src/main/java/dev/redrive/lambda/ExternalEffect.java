package dev.redrive.lambda;

import dev.redrive.core.consumer.EffectContext;

/**
 * An effect outside the claim store (an email, an HTTP call): runs after the claim, before completion, at most once
 * per producer key as long as the downstream honours {@link EffectContext}'s idempotency key. Throw to fail; do not
 * retry inside it (the backoff does, through the queue).
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface ExternalEffect<E> {

    /** Applies the effect; returns a short summary stored on the completed claim (never the payload), or null. */
    String apply(E event, EffectContext context) throws Exception;
}
