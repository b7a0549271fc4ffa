package dev.redrive.core.claim;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The key a claim is made on: the consumer's name plus a key the producer set on the message (an event id, or
 * order id + event type + version). Never the SQS messageId alone: redrive and replay give a message a new one.
 *
 * <p>The consumer name is part of the key so that two consumers of the same event (the email and the analytics
 * consumer of {@code OrderPlaced}) keep separate claims in one table.
 */
public record IdempotencyKey(String consumer, String producerKey) {

    /** DynamoDB allows 2048 bytes for a partition key; keep a margin for the separator and the consumer. */
    public static final int MAX_PRODUCER_KEY_BYTES = 1024;

    private static final String SEPARATOR = "#";

    public IdempotencyKey {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(producerKey, "producerKey");
        if (consumer.isBlank() || consumer.contains(SEPARATOR)) {
            throw new IllegalArgumentException("consumer name must be non-blank and must not contain '#': " + consumer);
        }
        if (producerKey.isBlank()) {
            throw new IllegalArgumentException("the producer key is blank");
        }
        if (producerKey.getBytes(StandardCharsets.UTF_8).length > MAX_PRODUCER_KEY_BYTES) {
            throw new IllegalArgumentException("the producer key is longer than " + MAX_PRODUCER_KEY_BYTES + " bytes");
        }
    }

    /** The stored form, {@code consumer#producerKey}. */
    public String value() {
        return consumer + SEPARATOR + producerKey;
    }

    /** The stored form parsed, or empty when {@code value} is not one (metadata from outside may be anything). */
    public static Optional<IdempotencyKey> tryParse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(value));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Parses the stored form back into its parts. */
    public static IdempotencyKey parse(String value) {
        int at = value.indexOf(SEPARATOR);
        if (at <= 0) {
            throw new IllegalArgumentException("not a stored idempotency key (consumer#key): " + value);
        }
        return new IdempotencyKey(value.substring(0, at), value.substring(at + 1));
    }

    @Override
    public String toString() {
        return value();
    }
}
