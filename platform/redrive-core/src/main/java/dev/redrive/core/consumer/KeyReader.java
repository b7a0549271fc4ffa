package dev.redrive.core.consumer;

import java.util.Optional;

/**
 * What the sweeper and a replay's idempotency check need of a consumer: its producer key and the canonical payload its
 * claim fingerprints, read from a message. Every {@link IdempotentConsumer} is one (through its own parser); a reader
 * built from a declared event contract (module {@code redrive-schema}) is another, so the sweeper and the CLI can serve
 * a consumer whose code they do not have. One rule for both: the claim key is {@code <consumer>#<producer key>}, and
 * the fingerprint is of {@link ParsedMessage#canonicalPayload()}.
 */
public interface KeyReader {

    /**
     * Reads a message: its producer key and canonical payload. Throws {@link dev.redrive.core.failure.SchemaViolation}
     * (or another runtime exception) when it cannot be read.
     */
    ParsedMessage<?> parse(IncomingMessage message);

    /**
     * The producer key of a message, even one that cannot be read whole any more (an older schema version): the key
     * scheme outlives payload versions. The default reads it through {@link #parse}; empty when it cannot.
     */
    default Optional<String> producerKey(IncomingMessage message) {
        try {
            return Optional.of(parse(message).producerKey());
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }
}
