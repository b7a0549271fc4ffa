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
 *
 * <p>A producer key is non-blank, at most {@value #MAX_PRODUCER_KEY_BYTES} UTF-8 bytes and holds no control or format
 * character, line or paragraph separator or lone surrogate: it becomes a DynamoDB key, an S3 metadata header and a log
 * field, and any of those would break one of them. The refusal's message never holds the key.
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
        for (int i = 0; i < producerKey.length(); i++) {
            char c = producerKey.charAt(i);
            if (unsafe(c, producerKey, i)) {
                throw new IllegalArgumentException(String.format(
                        "the producer key holds a control, format or separator character (U+%04X) at index %d; a key "
                                + "must be safe in a DynamoDB key, a header and a log line",
                        (int) c, i));
            }
            if (Character.isHighSurrogate(c)) {
                i++;
            }
        }
    }

    /** Control and format characters, line and paragraph separators, lone surrogates. */
    private static boolean unsafe(char c, String s, int i) {
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c) || Character.isISOControl(c)) {
            return true;
        }
        int type = Character.getType(c);
        return type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
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
