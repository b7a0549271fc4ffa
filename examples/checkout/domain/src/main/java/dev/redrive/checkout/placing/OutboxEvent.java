package dev.redrive.checkout.placing;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * An event the checkout owes its consumers, written in the same transaction as the order: the relay publishes it and
 * marks it published; a crash turns a lost event into a duplicate, which the consumers absorb.
 *
 * @param orderId   the order it belongs to
 * @param sequence  its place among the order's events, from 1 (the stream does not keep the order of a transaction's
 *                  items, so consumers read this)
 * @param eventId   the event's id
 * @param eventType {@code OrderPlaced}
 * @param payload   the event as it is published (OrderPlaced v2 JSON)
 * @param createdAt when the transaction wrote it, to the millisecond (as it is stored)
 */
public record OutboxEvent(
        String orderId, long sequence, String eventId, String eventType, String payload, Instant createdAt) {

    public OutboxEvent {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(payload, "payload");
        createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
        if (sequence < 1) {
            throw new IllegalArgumentException("an outbox event's sequence starts at 1, not " + sequence);
        }
    }
}
