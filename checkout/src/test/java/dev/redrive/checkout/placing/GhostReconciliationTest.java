package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ghost transactions on the fakes: a checkout that crashed after the authorization (or after the reservation) and
 * whose client never retried has its authorization voided and its stock released once the grace is over; a late
 * retry then gets 410; orders placed are never touched.
 */
class GhostReconciliationTest {

    static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");
    static final Duration LEASE = Duration.ofSeconds(35);
    static final Duration GRACE = Duration.ofMinutes(15);

    final InMemoryCheckoutStore store = new InMemoryCheckoutStore();
    final InMemoryPaymentProvider payments = new InMemoryPaymentProvider();
    final CheckoutService checkout = new CheckoutService(store, payments, CheckoutService.Settings.DEFAULT);
    final GhostReconciliation reconciliation = new GhostReconciliation(store, payments, GRACE, Duration.ofSeconds(2));
    final CheckoutRequest request =
            new CheckoutRequest("ada@example.com", List.of(new OrderLine("sku-mug", 2)), "EUR", "tok_visa");

    GhostReconciliationTest() {
        store.stock("sku-mug", 10, 1250, "EUR");
    }

    /** The checkout ran until the authorization, then its sandbox died: no transaction, no client retry. */
    void crashedAfterTheAuthorization(String key) {
        String orderId = CheckoutService.orderIdOf(key);
        long token = store.begin(key, request.fingerprint(), orderId, T0, LEASE)
                .attempt()
                .token();
        store.reserve(orderId, request.items(), "EUR", T0);
        PaymentProvider.Authorized auth = (PaymentProvider.Authorized) payments.authorize(
                new PaymentProvider.Authorization(key, orderId, "tok_visa", 2500, "EUR"), Duration.ofSeconds(1));
        store.authorized(key, token, auth.authorizationId());
    }

    @Test
    void aCheckoutThatDiedBetweenPaymentAndTransactionIsVoidedAndReleasedAfterTheGrace() {
        crashedAfterTheAuthorization("k-1");

        GhostReconciliation.Report early =
                reconciliation.run(T0.plus(LEASE).plus(GRACE).minusSeconds(1), LEASE, 100);
        GhostReconciliation.Report late =
                reconciliation.run(T0.plus(LEASE).plus(GRACE).plusSeconds(1), LEASE, 100);

        assertThat(early).isEqualTo(new GhostReconciliation.Report(0, 0, 0));
        assertThat(late).isEqualTo(new GhostReconciliation.Report(1, 0, 0));
        assertThat(payments.charges())
                .singleElement()
                .satisfies(c -> assertThat(c.voided()).isTrue());
        assertThat(store.available("sku-mug")).isEqualTo(10);
        assertThat(checkout.place(
                        "k-1",
                        request,
                        T0.plus(Duration.ofHours(1)),
                        T0.plus(Duration.ofHours(1)).plusSeconds(30)))
                .as("the late retry")
                .isEqualTo(new CheckoutOutcome.Abandoned());
        assertThat(store.order(CheckoutService.orderIdOf("k-1"))).isEmpty();
    }

    @Test
    void aCheckoutThatDiedAfterTheReservationAloneIsReleased() {
        String orderId = CheckoutService.orderIdOf("k-2");
        store.begin("k-2", request.fingerprint(), orderId, T0, LEASE);
        store.reserve(orderId, request.items(), "EUR", T0);

        assertThat(reconciliation.run(T0.plus(Duration.ofHours(1)), LEASE, 100).voided())
                .isEqualTo(1);

        assertThat(store.available("sku-mug")).isEqualTo(10);
        assertThat(payments.charges()).isEmpty();
    }

    @Test
    void aProviderThatCannotVoidLeavesTheAttemptForTheNextRun() {
        crashedAfterTheAuthorization("k-3");
        PaymentProvider down = new PaymentProvider() {
            @Override
            public Outcome authorize(Authorization request, Duration timeout) {
                return new Unavailable("down");
            }

            @Override
            public boolean voidAuthorization(String idempotencyKey, Duration timeout) {
                return false;
            }
        };
        Instant later = T0.plus(Duration.ofHours(1));

        GhostReconciliation.Report failed =
                new GhostReconciliation(store, down, GRACE, Duration.ofSeconds(2)).run(later, LEASE, 100);

        assertThat(failed).isEqualTo(new GhostReconciliation.Report(0, 0, 1));
        assertThat(store.available("sku-mug")).as("held until voided").isEqualTo(8);

        GhostReconciliation.Report next = reconciliation.run(later.plusSeconds(60), LEASE, 100);

        assertThat(next.voided()).as("taken again at once, no second grace").isEqualTo(1);
        assertThat(store.available("sku-mug")).isEqualTo(10);
    }

    /**
     * The reconciliation took the attempt, voided its authorization and released its stock, then died before it could
     * finish the attempt VOIDED (a throttled write, a killed sandbox). A client that keeps retrying must get a final
     * answer: before, each retry took the lapsed lease, found the released reservation "reserved", was authorized
     * again under the voided charge, failed to place (a released line cannot be confirmed) and answered 409 in
     * progress while holding the lease again, so neither the client nor the next reconciliation (which waits for a
     * lease lapsed by its grace) ever ended it (the fixed-seed chaos run's producers stalled on it).
     */
    @Test
    void aRetryAfterAReconciliationThatDiedBeforeFinishingGetsAFinalAnswerAndNoCharge() {
        crashedAfterTheAuthorization("k-6");
        String orderId = CheckoutService.orderIdOf("k-6");
        Instant reconciled = T0.plus(LEASE).plus(GRACE).plusSeconds(1);
        store.begin("k-6", request.fingerprint(), orderId, reconciled, LEASE);
        payments.voidAuthorization("k-6", Duration.ofSeconds(2));
        store.release(orderId, reconciled);
        // ... and the reconciliation's sandbox died here, before finish(VOIDED)

        Instant retry = reconciled.plus(LEASE).plusSeconds(1);
        List<CheckoutOutcome> answers = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++, retry = retry.plus(LEASE).plus(LEASE)) {
            answers.add(checkout.place("k-6", request, retry, retry.plusSeconds(30)));
        }

        assertThat(answers)
                .as("five retries, each after the lease before it lapsed")
                .allSatisfy(a -> assertThat(a).isEqualTo(new CheckoutOutcome.Abandoned()));
        assertThat(store.order(orderId)).isEmpty();
        assertThat(payments.charges())
                .singleElement()
                .satisfies(c -> assertThat(c.voided()).isTrue());
        assertThat(store.available("sku-mug")).isEqualTo(10);
        assertThat(store.abandoned(retry.plus(Duration.ofDays(1)), 10))
                .as("no attempt left open")
                .isEmpty();
    }

    @Test
    void placedOrdersAndAClientRetryInFlightAreLeftAlone() {
        assertThat(checkout.place("k-4", request, T0, T0.plusSeconds(30))).isInstanceOf(CheckoutOutcome.Placed.class);

        GhostReconciliation.Report report = reconciliation.run(T0.plus(Duration.ofHours(1)), LEASE, 100);

        assertThat(report).isEqualTo(new GhostReconciliation.Report(0, 0, 0));
        assertThat(payments.charges())
                .singleElement()
                .satisfies(c -> assertThat(c.voided()).isFalse());
        assertThat(store.available("sku-mug")).isEqualTo(8);
    }

    @Test
    void aStaleInvocationWakingAfterTheVoidPlacesNothing() {
        String orderId = CheckoutService.orderIdOf("k-5");
        long stale = store.begin("k-5", request.fingerprint(), orderId, T0, LEASE)
                .attempt()
                .token();
        store.reserve(orderId, request.items(), "EUR", T0);
        reconciliation.run(T0.plus(Duration.ofHours(1)), LEASE, 100);

        PlacedOrder late = new PlacedOrder(
                orderId,
                CheckoutService.eventIdOf(orderId),
                "ada@example.com",
                List.of(new PlacedOrder.PricedLine("sku-mug", 2, 1250)),
                2500,
                "EUR",
                T0,
                "auth-late");

        assertThat(store.place("k-5", stale, late, CheckoutService.orderPlaced(late)))
                .isFalse();
        assertThat(store.outbox(orderId)).isEmpty();
    }
}
