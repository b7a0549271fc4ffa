package dev.redrive.lambda;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;

/**
 * Reads a message into the event a consumer's effect takes, with its producer key and canonical payload. Use one
 * that reads as the sweeper and the CLI read, so that a replayed dead letter has the consumer's key and fingerprint:
 * {@link JsonMessages#keyAt} (a key at a JSON pointer, no schema) or a declared contract's reader ({@code
 * contractReader::parse}, {@code redrive-schema}'s {@code ContractReader}).
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
