package dev.redrive.checkout.placing;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Ends an attempt held in {@link CheckoutAttempt.Status#VOIDING}: voids what was authorized under its key, releases its
 * stock, finishes it VOIDED, each write fenced by the token it is held with. The one rule for every path that ends an
 * attempt VOIDED: the reconciliation's, and a client's retry that finds its reservation released. Each step is
 * idempotent, so whoever takes the attempt next (the reconciliation) finishes what a run that died left.
 */
final class AttemptVoiding {

    /** How it ended. */
    enum Ended {
        /** VOIDED: nothing stays authorized under its key, its stock is back. */
        VOIDED,
        /** The provider did not confirm the void: given back, still VOIDING, for the next reconciliation run. */
        NOT_ENDED,
        /** Another invocation took it over meanwhile (its writes were refused): that one ends it. */
        TAKEN_OVER
    }

    private final CheckoutStore store;
    private final PaymentProvider payments;
    private final Duration providerTimeout;

    AttemptVoiding(CheckoutStore store, PaymentProvider payments, Duration providerTimeout) {
        this.store = Objects.requireNonNull(store, "store");
        this.payments = Objects.requireNonNull(payments, "payments");
        this.providerTimeout = Objects.requireNonNull(providerTimeout, "providerTimeout");
    }

    /**
     * Ends {@code held} (VOIDING, with the token and lease this caller holds) VOIDED with {@code reason}.
     *
     * @param callsEndBy by when the provider's call must be over (the invocation's deadline, at the latest the lease)
     * @param giveBackAs the lease end it is given back with when the void is not confirmed: the next reconciliation
     *     takes attempts whose lease ended a grace ago, so an earlier end is retaken sooner
     */
    Ended end(CheckoutAttempt held, String reason, Instant now, Instant callsEndBy, Instant giveBackAs) {
        if (held.status() != CheckoutAttempt.Status.VOIDING) {
            throw new IllegalArgumentException("only a VOIDING attempt is ended VOIDED, not " + held.status());
        }
        Instant endBy = callsEndBy.isBefore(held.leaseUntil()) ? callsEndBy : held.leaseUntil();
        Duration timeLeft = Duration.between(now, endBy);
        Duration timeout = timeLeft.compareTo(providerTimeout) < 0 ? timeLeft : providerTimeout;
        PaymentProvider.VoidOutcome voided = timeout.isNegative() || timeout.isZero()
                ? new PaymentProvider.VoidFailed("no time left in the lease to void")
                : payments.voidAuthorization(held.key(), timeout);
        if (!voided.settled()) {
            store.letGo(held.key(), held.token(), giveBackAs);
            return Ended.NOT_ENDED;
        }
        if (!store.release(held.key(), held.token(), held.orderId(), now)) {
            return Ended.TAKEN_OVER;
        }
        return store.finish(held.key(), held.token(), CheckoutAttempt.Status.VOIDED, reason)
                ? Ended.VOIDED
                : Ended.TAKEN_OVER;
    }
}
