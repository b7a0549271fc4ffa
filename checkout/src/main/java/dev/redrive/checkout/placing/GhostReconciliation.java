package dev.redrive.checkout.placing;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Voids ghost transactions: a checkout whose client never came back, its lease over by more than the grace (a crash
 * between the payment and the transaction, or after the reservation). For each, in this order, each step idempotent
 * so a reconciliation that dies part way is finished by the next run:
 * <ol>
 *   <li>take the attempt over (a lease with the next fencing token: a late client retry now waits, then gets 410);</li>
 *   <li>void the authorization made under its key, if any (the provider's void is idempotent); if the provider cannot
 *       be reached, give the attempt back with its old lease end, so the next run takes it again at once;</li>
 *   <li>release its reservation;</li>
 *   <li>finish it VOIDED.</li>
 * </ol>
 * An attempt that placed its order is finished and never listed.
 */
public final class GhostReconciliation {

    private final CheckoutStore store;
    private final PaymentProvider payments;
    private final Duration grace;
    private final Duration providerTimeout;

    /**
     * @param grace           how long after an attempt's lease its client may still retry and finish it
     * @param providerTimeout the longest a void may take
     */
    public GhostReconciliation(
            CheckoutStore store, PaymentProvider payments, Duration grace, Duration providerTimeout) {
        this.store = Objects.requireNonNull(store, "store");
        this.payments = Objects.requireNonNull(payments, "payments");
        this.grace = Objects.requireNonNull(grace, "grace");
        this.providerTimeout = Objects.requireNonNull(providerTimeout, "providerTimeout");
    }

    /** What a run did. */
    public record Report(int voided, int skipped, int providerUnreachable) {}

    /** Voids up to {@code limit} abandoned checkouts, holding each for {@code lease}, at the clock's time. */
    public Report run(java.time.Clock clock, Duration lease, int limit) {
        return run(clock.instant(), lease, limit);
    }

    /** Voids up to {@code limit} abandoned checkouts, holding each for {@code lease}. */
    public Report run(Instant now, Duration lease, int limit) {
        int voided = 0;
        int skipped = 0;
        int unreachable = 0;
        for (CheckoutAttempt abandoned : store.abandoned(now.minus(grace), limit)) {
            CheckoutStore.Begin taken =
                    store.begin(abandoned.key(), abandoned.fingerprint(), abandoned.orderId(), now, lease);
            if (!(taken instanceof CheckoutStore.Started started)) {
                skipped++; // a client retry took it, or it finished meanwhile
                continue;
            }
            long token = started.attempt().token();
            if (!payments.voidAuthorization(abandoned.key(), providerTimeout)) {
                // give it back as abandoned as it was (its old lease end), so the next run takes it at once
                store.letGo(abandoned.key(), token, abandoned.leaseUntil());
                unreachable++;
                continue;
            }
            store.release(abandoned.orderId(), now);
            if (store.finish(
                    abandoned.key(),
                    token,
                    CheckoutAttempt.Status.VOIDED,
                    "abandoned: no order was written within " + grace + " of the attempt's lease")) {
                voided++;
            } else {
                skipped++;
            }
        }
        return new Report(voided, skipped, unreachable);
    }
}
