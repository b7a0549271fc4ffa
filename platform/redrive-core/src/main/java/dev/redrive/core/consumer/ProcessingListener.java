package dev.redrive.core.consumer;

import dev.redrive.core.claim.IdempotencyKey;
import java.time.Duration;

/**
 * Hooks for metrics and logs around processing. Implementations must be thread-safe: records of a batch are
 * processed concurrently.
 */
public interface ProcessingListener {

    ProcessingListener NONE = new ProcessingListener() {};

    default void effectFinished(String consumer, Duration latency, boolean succeeded) {}

    /** The effect ran but its completion could not be written. */
    default void completionFailed(IdempotencyKey key, RuntimeException error) {}

    /** Releasing a failed claim threw; the lease will expire on its own. */
    default void releaseFailed(IdempotencyKey key, RuntimeException error) {}

    /** Releasing was refused: the claim had been taken over by a newer token. */
    default void releaseFenced(IdempotencyKey key, long fencingToken) {}

    /** An applied message's claim-check payload could not be deleted ({@code AFTER_APPLY}); it expires by lifecycle. */
    default void claimCheckNotDiscarded(String messageId, RuntimeException error) {}
}
