package dev.redrive.checkout.placing;

import java.time.Duration;
import java.util.Objects;

/**
 * The payment provider: authorizes a charge and voids an authorization, each under the checkout's idempotency key the
 * way payment APIs take one (the same key and request: the same authorization; another request under the key: an
 * error). One call per attempt: the only retry layer is the client's retry with the same key.
 */
public interface PaymentProvider {

    /**
     * Authorizes {@code request} within {@code timeout}.
     *
     * @return authorized, declined, or unavailable (a timeout, a 5xx, a refused connection: it may or may not have
     *     authorized; a retry with the same key finds out)
     */
    Outcome authorize(Authorization request, Duration timeout);

    /**
     * Voids the authorization made under {@code idempotencyKey}, if there is one (idempotent).
     *
     * @return true when it is void (or there was none), false when the provider could not be reached
     */
    boolean voidAuthorization(String idempotencyKey, Duration timeout);

    /** What to authorize. */
    record Authorization(
            String idempotencyKey, String orderId, String paymentToken, long amountMinor, String currency) {
        public Authorization {
            Objects.requireNonNull(idempotencyKey, "idempotencyKey");
            Objects.requireNonNull(orderId, "orderId");
            Objects.requireNonNull(paymentToken, "paymentToken");
            Objects.requireNonNull(currency, "currency");
            if (amountMinor < 0) {
                throw new IllegalArgumentException("an authorization is of 0 or more, not " + amountMinor);
            }
        }
    }

    /** The provider's answer. */
    sealed interface Outcome {}

    /** Authorized as {@code authorizationId}. */
    record Authorized(String authorizationId) implements Outcome {}

    /** Declined, with the provider's reason (no card data). */
    record Declined(String reason) implements Outcome {}

    /** Not answered in time, or failed: unknown whether it authorized. */
    record Unavailable(String reason) implements Outcome {}
}
