package dev.redrive.lambda;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;

/**
 * Reads a message into the event a consumer's effect takes, with its producer key and canonical payload: the seam a
 * declared contract plugs into ({@code redrive-schema}'s {@code ContractReader}, so the consumer, the sweeper and the
 * CLI read keys and fingerprints the same way). Until then: {@link JsonMessages#keyAt}, or your own.
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface MessageReader<E> {

    /**
     * Reads {@code message}. Throw {@link dev.redrive.core.failure.SchemaViolation} when it cannot be read: it is
     * dead-lettered at once with that reason and burns no retries.
     */
    ParsedMessage<E> read(IncomingMessage message);
}
