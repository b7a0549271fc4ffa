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
     * @return voided (now or before), never authorized (nothing to void), or failed (not reached, not answered in
     *     time, or refused: whether anything is void is unknown, and the caller tries again later)
     */
    VoidOutcome voidAuthorization(String idempotencyKey, Duration timeout);

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

    /** The provider's answer to a void. */
    sealed interface VoidOutcome {
        /** Whether nothing stays authorized under the key: voided, or never authorized. */
        default boolean settled() {
            return !(this instanceof VoidFailed);
        }
    }

    /** The authorization under the key is void (voided now, or before). */
    record Voided() implements VoidOutcome {}

    /** Nothing was ever authorized under the key (a payment API's "no such authorization"): nothing to void. */
    record NeverAuthorized() implements VoidOutcome {}

    /** Not reached, not answered in time, or refused: unknown whether it is void. */
    record VoidFailed(String reason) implements VoidOutcome {}
}
