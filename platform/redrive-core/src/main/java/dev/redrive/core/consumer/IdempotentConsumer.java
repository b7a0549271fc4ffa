package dev.redrive.core.consumer;

import dev.redrive.core.failure.FailureClassifier;
import dev.redrive.core.failure.SchemaViolation;
import java.util.Optional;

/**
 * A consumer whose effect must happen exactly once per producer key. Implement {@link ExternalEffectConsumer} when
 * the effect is a call elsewhere, or {@link TransactionalEffectConsumer} when it is a write to the claim's own store:
 * the family is sealed to those two, and {@link #match} makes whoever runs a consumer handle both (the compiler checks
 * it).
 *
 * @param <E> the event type
 */
public sealed interface IdempotentConsumer<E> extends KeyReader
        permits ExternalEffectConsumer, TransactionalEffectConsumer {

    /** A stable name; part of every claim key, so never rename a consumer in production. */
    String name();

    /**
     * Reads a message. Throw {@link SchemaViolation} when it cannot be read (not JSON, missing key, wrong type,
     * unknown version): the message is dead-lettered at once with that reason and burns no retries.
     */
    @Override
    ParsedMessage<E> parse(IncomingMessage message);

    /**
     * The producer key of a message, even one this version cannot read any more (an older schema version): the key
     * scheme outlives payload versions, and the sweeper needs it to find the claims earlier versions made. The
     * default reads it through {@link #parse}.
     */
    @Override
    default Optional<String> producerKey(IncomingMessage message) {
        try {
            return Optional.of(parse(message).producerKey());
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /** How this consumer's failures are classified; declare mappings for your own exceptions here. */
    default FailureClassifier classifier() {
        return FailureClassifier.defaults();
    }

    /** Runs the case of {@code cases} that is this consumer's kind. */
    <R> R match(Cases<E, R> cases);

    /**
     * What to do with each kind of consumer.
     *
     * @param <E> the event type
     * @param <R> the result
     */
    interface Cases<E, R> {

        R external(ExternalEffectConsumer<E> consumer);

        <W> R transactional(TransactionalEffectConsumer<E, W> consumer);
    }
}
