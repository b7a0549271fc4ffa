package dev.redrive.core.consumer;

import java.util.Objects;

/**
 * A message a consumer could read.
 *
 * @param event            the typed event
 * @param producerKey      the idempotency key the producer set (event id, or order id + type + version)
 * @param canonicalPayload a canonical rendering of the event, fingerprinted to spot a reused key
 */
public record ParsedMessage<E>(E event, String producerKey, String canonicalPayload) {
    public ParsedMessage {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(producerKey, "producerKey");
        Objects.requireNonNull(canonicalPayload, "canonicalPayload");
    }
}
