package dev.redrive.core.consumer;

import dev.redrive.core.claim.IdempotencyKey;

/**
 * What an effect gets besides the event: the key and the fencing token to hand downstream (the way a payment API
 * takes an idempotency key), and which delivery this is.
 */
public record EffectContext(IdempotencyKey key, long fencingToken, int attempt, String messageId) {}
