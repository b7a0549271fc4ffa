package dev.redrive.core.quarantine;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a dead letter came from, fixed once it is quarantined.
 *
 * @param consumer        the consumer it failed in
 * @param sourceQueue     the queue it came from (name), where a replay sends it back
 * @param deadLetterQueue the dead-letter queue it arrived in (name)
 * @param sourceMessageId the message id in the source queue
 * @param idempotencyKey  its claim key when one could be read ({@code consumer#producerKey}), else null
 * @param arrivedAt       when the sweeper first saw it
 */
public record DeadLetterOrigin(
        String consumer,
        String sourceQueue,
        String deadLetterQueue,
        String sourceMessageId,
        String idempotencyKey,
        Instant arrivedAt) {

    public DeadLetterOrigin {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(sourceQueue, "sourceQueue");
        Objects.requireNonNull(arrivedAt, "arrivedAt");
    }

    public Optional<String> key() {
        return Optional.ofNullable(idempotencyKey);
    }
}
