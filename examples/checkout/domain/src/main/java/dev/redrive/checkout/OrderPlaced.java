package dev.redrive.checkout;

import java.time.Instant;

/**
 * The checkout's {@code OrderPlaced} event in its current shape (schema version {@value #CURRENT_VERSION}).
 *
 * @param eventId       the producer's event id: the idempotency key of every consumer
 * @param orderId       the order
 * @param customerEmail where the confirmation goes (sensitive: never logged)
 * @param amountMinor   the order total in minor units (cents)
 * @param currency      ISO 4217 code
 * @param placedAt      when the order was placed
 */
public record OrderPlaced(
        String eventId, String orderId, String customerEmail, long amountMinor, String currency, Instant placedAt) {

    public static final String EVENT_TYPE = "OrderPlaced";
    public static final int CURRENT_VERSION = 2;

    /** A canonical rendering of the business content, fingerprinted to spot a reused event id. */
    public String canonical() {
        return String.join(
                "\u001f", eventId, orderId, customerEmail, Long.toString(amountMinor), currency, placedAt.toString());
    }

    /** The day the order counts towards, in UTC. */
    public String day() {
        return placedAt.toString().substring(0, 10);
    }
}
