package dev.redrive.checkout.placing;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * An order as the checkout wrote it, once, in the transaction with its OrderPlaced outbox item.
 *
 * @param orderId         derived from the idempotency key ({@link CheckoutService#orderIdOf}), so every retry of one
 *                        checkout names the same order
 * @param eventId         the OrderPlaced event's id: every consumer's idempotency key
 * @param customerEmail   where the confirmation goes (sensitive)
 * @param lines           what was bought, at the prices reserved
 * @param amountMinor     the total in minor units
 * @param currency        ISO 4217
 * @param placedAt        when the transaction was decided, to the millisecond (as it is stored and published: a retry's
 *                        answer and the event say the same time as the first answer)
 * @param authorizationId the payment provider's authorization
 */
public record PlacedOrder(
        String orderId,
        String eventId,
        String customerEmail,
        List<PricedLine> lines,
        long amountMinor,
        String currency,
        Instant placedAt,
        String authorizationId) {

    public PlacedOrder {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(customerEmail, "customerEmail");
        lines = List.copyOf(lines);
        Objects.requireNonNull(currency, "currency");
        placedAt = Objects.requireNonNull(placedAt, "placedAt").truncatedTo(ChronoUnit.MILLIS);
        Objects.requireNonNull(authorizationId, "authorizationId");
    }

    /** A line at the unit price its reservation holds. */
    public record PricedLine(String sku, int quantity, long unitPriceMinor) {
        /** The line's amount; refuses an amount that does not fit exactly. */
        public long amountMinor() {
            return Math.multiplyExact(unitPriceMinor, (long) quantity);
        }
    }
}
