package dev.redrive.infra.checkout;

import dev.redrive.checkout.CheckoutNames.OrderRetention;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How long the orders table keeps what may go, by its TTL ({@value OrderRetention#ATTRIBUTE}, epoch seconds): a
 * finished checkout attempt, and a published outbox event. An unfinished attempt, an unpublished event, an order, its
 * reservations and stock never expire.
 *
 * <p>A client retrying with the same Idempotency-Key after its attempt expired is not answered from it: the checkout
 * begins again (under the same order id), which is why the default is long.
 *
 * @param finishedAttempts {@code checkoutAttemptRetention} (ISO-8601, default
 *                         {@value OrderRetention#ATTEMPT_DEFAULT}): how long a finished attempt is kept after it
 *                         finished; at least {@link #MIN_ATTEMPT_RETENTION} (the checkout's lease and the
 *                         reconciliation's look-back)
 * @param publishedEvents  {@code outboxEventRetention} (ISO-8601, default {@value OrderRetention#EVENT_DEFAULT}): how
 *                         long a published outbox event is kept after its first publication; at least
 *                         {@link #MIN_EVENT_RETENTION} (the stream's record retention)
 */
public record OrderRetentionSettings(Duration finishedAttempts, Duration publishedEvents) {

    /**
     * The shortest attempt retention: the checkout's lease (its timeout and the functions' default lease margin) and
     * the reconciliation's look-back (its grace and lease), 16 min 20 s.
     */
    public static final Duration MIN_ATTEMPT_RETENTION = CheckoutProducer.CHECKOUT_TIMEOUT
            .plus(CheckoutProducer.LEASE_MARGIN_DEFAULT)
            .plus(CheckoutProducer.RECONCILIATION_GRACE_DEFAULT)
            .plus(CheckoutProducer.RECONCILIATION_LEASE_DEFAULT);

    /**
     * The shortest event retention: a DynamoDB stream keeps a record 24 hours, and the relay retrying the record of an
     * event already expired would find no item to mark published.
     */
    public static final Duration MIN_EVENT_RETENTION = Duration.ofHours(24);

    /** The defaults. */
    public static final OrderRetentionSettings DEFAULT = new OrderRetentionSettings(
            Duration.parse(OrderRetention.ATTEMPT_DEFAULT), Duration.parse(OrderRetention.EVENT_DEFAULT));

    /** Checks both retentions against their floors, naming the context key, the value and the floor. */
    public OrderRetentionSettings {
        Objects.requireNonNull(finishedAttempts, "finishedAttempts");
        Objects.requireNonNull(publishedEvents, "publishedEvents");
        if (finishedAttempts.compareTo(MIN_ATTEMPT_RETENTION) < 0) {
            throw new IllegalArgumentException("-c checkoutAttemptRetention=" + finishedAttempts + " must be at least "
                    + MIN_ATTEMPT_RETENTION + ": the checkout's lease (its timeout " + CheckoutProducer.CHECKOUT_TIMEOUT
                    + " and lease margin " + CheckoutProducer.LEASE_MARGIN_DEFAULT + ") and the reconciliation's "
                    + "look-back (its grace " + CheckoutProducer.RECONCILIATION_GRACE_DEFAULT + " and lease "
                    + CheckoutProducer.RECONCILIATION_LEASE_DEFAULT + ")");
        }
        if (publishedEvents.compareTo(MIN_EVENT_RETENTION) < 0) {
            throw new IllegalArgumentException("-c outboxEventRetention=" + publishedEvents + " must be at least "
                    + MIN_EVENT_RETENTION + ": the orders table's stream keeps a record 24 hours, and the relay "
                    + "retrying one whose event has expired could not mark it");
        }
    }

    /** What the functions that finish attempts (the checkout, the reconciliation) are told. */
    Map<String, String> attemptEnvironment() {
        return Map.of(OrderRetention.ATTEMPT_VARIABLE, text(finishedAttempts));
    }

    /** What the functions that mark events published (the relay, the sweep) are told. */
    Map<String, String> eventEnvironment() {
        return Map.of(OrderRetention.EVENT_VARIABLE, text(publishedEvents));
    }

    /** ISO-8601, in days when whole ({@code P30D}, not {@code PT720H}). */
    private static String text(Duration d) {
        return d.toSeconds() % 86_400 == 0 && d.getNano() == 0 ? "P" + d.toDays() + "D" : d.toString();
    }
}
