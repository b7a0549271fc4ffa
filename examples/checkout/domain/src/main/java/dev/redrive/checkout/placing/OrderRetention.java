package dev.redrive.checkout.placing;

import dev.redrive.checkout.CheckoutNames;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How long the orders table keeps the items that may go, by its TTL ({@value CheckoutNames.OrderRetention#ATTRIBUTE},
 * epoch seconds): a finished checkout attempt, from when it finished; a published outbox event, from its first
 * publication. Nothing else ever carries the attribute: an unfinished attempt (the reconciliation still needs it), an
 * unpublished event (the sweep still needs it), an order, a reservation, stock.
 *
 * <p>A client retrying with the same Idempotency-Key after its attempt expired is no longer answered from it: the
 * checkout begins again under the same order id, so the retention must be far longer than any client retries.
 *
 * @param finishedAttempts how long a finished attempt is kept after it finished; empty: for ever
 * @param publishedEvents  how long a published outbox event is kept after its publication; empty: for ever
 */
public record OrderRetention(Optional<Duration> finishedAttempts, Optional<Duration> publishedEvents) {

    /** Nothing expires: the layout before the orders table had a TTL. */
    public static final OrderRetention NONE = new OrderRetention(Optional.empty(), Optional.empty());

    /**
     * The defaults: finished attempts {@value CheckoutNames.OrderRetention#ATTEMPT_DEFAULT}, published events
     * {@value CheckoutNames.OrderRetention#EVENT_DEFAULT}.
     */
    public static final OrderRetention DEFAULT = of(
            Duration.parse(CheckoutNames.OrderRetention.ATTEMPT_DEFAULT),
            Duration.parse(CheckoutNames.OrderRetention.EVENT_DEFAULT));

    /** Checks that each retention set is positive. */
    public OrderRetention {
        Objects.requireNonNull(finishedAttempts, "finishedAttempts");
        Objects.requireNonNull(publishedEvents, "publishedEvents");
        finishedAttempts.ifPresent(d -> positive("finished attempts' retention", d));
        publishedEvents.ifPresent(d -> positive("published events' retention", d));
    }

    /** Both retentions set. */
    public static OrderRetention of(Duration finishedAttempts, Duration publishedEvents) {
        return new OrderRetention(Optional.of(finishedAttempts), Optional.of(publishedEvents));
    }

    /** When an attempt finished at {@code finishedAt} expires, in epoch seconds; empty: never. */
    Optional<Long> attemptExpiry(Instant finishedAt) {
        return finishedAttempts.map(d -> finishedAt.plus(d).getEpochSecond());
    }

    /** When an event published at {@code publishedAt} expires, in epoch seconds; empty: never. */
    Optional<Long> eventExpiry(Instant publishedAt) {
        return publishedEvents.map(d -> publishedAt.plus(d).getEpochSecond());
    }

    private static void positive(String what, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("the orders table's " + what + " is " + d + ": it must be positive");
        }
    }
}
