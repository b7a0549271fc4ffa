package dev.redrive.checkout.placing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Voids ghost transactions: a checkout whose client never came back, its lease over by more than the grace (a crash
 * between the payment and the transaction, or after the reservation). For each, in this order, each step idempotent and
 * fenced by the attempt's token, so a reconciliation that dies part way is finished by the next run:
 * <ol>
 *   <li>take the attempt over into VOIDING, in one conditional write on the token it was listed with, with a lease from
 *       the current time: from here no client retry can place it (it is answered 410), so a void cannot be followed by
 *       an order placed on the void authorization;</li>
 *   <li>void the authorization made under its key (the provider's void is idempotent; "no such authorization" is
 *       nothing to void); if the provider does not confirm, give the attempt back with its old lease end, still
 *       VOIDING, so the next run takes it again at once, and count it as not ended;</li>
 *   <li>release its reservation, fenced by the token;</li>
 *   <li>finish it VOIDED, fenced by the token.</li>
 * </ol>
 * An attempt that placed its order is finished and never listed. A run takes no attempt whose lease would outlast the
 * run's deadline: the rest waits for the next run.
 */
public final class GhostReconciliation {

    private final CheckoutStore store;
    private final AttemptVoiding voiding;
    private final Duration grace;

    /**
     * @param grace           how long after an attempt's lease its client may still retry and finish it
     * @param providerTimeout the longest a void may take
     */
    public GhostReconciliation(
            CheckoutStore store, PaymentProvider payments, Duration grace, Duration providerTimeout) {
        this.store = Objects.requireNonNull(store, "store");
        this.voiding = new AttemptVoiding(store, payments, providerTimeout);
        this.grace = Objects.requireNonNull(grace, "grace");
    }

    /**
     * What a run did.
     *
     * @param voided   attempts it ended VOIDED
     * @param skipped  attempts taken by a client retry or another run, or finished, since they were listed
     * @param notEnded attempts it took and could not end (the provider did not confirm the void): given back, still
     *                 VOIDING, for the next run; a number that stays above zero run after run needs a person
     * @param deferred abandoned attempts it listed and left for the next run (its deadline came first)
     */
    public record Report(int voided, int skipped, int notEnded, int deferred) {}

    /**
     * Voids up to {@code limit} abandoned checkouts, each held for {@code lease} from when it is taken (the clock's
     * time then), taking none whose lease would end after {@code deadline}.
     */
    public Report run(Clock clock, Instant deadline, Duration lease, int limit) {
        List<CheckoutAttempt> abandoned = store.abandoned(clock.instant().minus(grace), limit);
        int voided = 0;
        int skipped = 0;
        int notEnded = 0;
        for (int i = 0; i < abandoned.size(); i++) {
            CheckoutAttempt listed = abandoned.get(i);
            Instant now = clock.instant();
            if (now.plus(lease).isAfter(deadline)) {
                return new Report(voided, skipped, notEnded, abandoned.size() - i);
            }
            Optional<CheckoutAttempt> taken = store.voiding(listed.key(), listed.token(), now, lease);
            if (taken.isEmpty()) {
                skipped++; // a client retry or another run took it, or it finished, since it was listed
                continue;
            }
            String reason = "abandoned: no order was written within " + grace + " of the attempt's lease";
            CheckoutAttempt held = taken.get();
            switch (voiding.end(held, reason, clock.instant(), held.leaseUntil(), listed.leaseUntil())) {
                case VOIDED -> voided++;
                case NOT_ENDED -> notEnded++;
                case TAKEN_OVER -> skipped++;
            }
        }
        return new Report(voided, skipped, notEnded, 0);
    }
}
