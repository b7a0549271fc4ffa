package dev.redrive.checkout.placing;

import java.time.Instant;
import java.util.List;

/**
 * The checkout's outbox as the relay sees it: events written with their orders, marked once published. (The events are
 * written by {@link CheckoutStore#place}, in the order's own transaction.)
 */
public interface Outbox {

    /**
     * Marks the event published at {@code now} (idempotent: a second mark keeps the first time).
     *
     * @throws IllegalArgumentException when there is no such event
     */
    void markPublished(String orderId, long sequence, Instant now);

    /** Marks every one of {@code events} published at {@code now}, all or none; by default one mark each. */
    default void markAllPublished(List<OutboxEvent> events, Instant now) {
        events.forEach(e -> markPublished(e.orderId(), e.sequence(), now));
    }

    /**
     * Events written before {@code writtenBefore} and not marked published, oldest first, at most {@code limit}: what
     * the relay missed (it was down, or the stream's 24 h passed).
     */
    List<OutboxEvent> unpublished(Instant writtenBefore, int limit);

    /** When the event was marked published; empty while it is not. */
    java.util.Optional<Instant> publishedAt(String orderId, long sequence);
}
