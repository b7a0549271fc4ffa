package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.testing.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

    /** A run of the reconciliation at {@code at}, its clock standing still, with two minutes before its deadline. */
    GhostReconciliation.Report run(GhostReconciliation r, Instant at) {
        return r.run(Clock.fixed(at, ZoneOffset.UTC), at.plus(Duration.ofMinutes(2)), LEASE, 100);
    }

    GhostReconciliation.Report run(Instant at) {
        return run(reconciliation, at);
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

        GhostReconciliation.Report early = run(T0.plus(LEASE).plus(GRACE).minusSeconds(1));
        GhostReconciliation.Report late = run(T0.plus(LEASE).plus(GRACE).plusSeconds(1));

        assertThat(early).isEqualTo(new GhostReconciliation.Report(0, 0, 0, 0));
        assertThat(late).isEqualTo(new GhostReconciliation.Report(1, 0, 0, 0));
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

        assertThat(run(T0.plus(Duration.ofHours(1))).voided()).isEqualTo(1);

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
            public VoidOutcome voidAuthorization(String idempotencyKey, Duration timeout) {
                return new VoidFailed("down");
            }
        };
        Instant later = T0.plus(Duration.ofHours(1));

        GhostReconciliation.Report failed =
                run(new GhostReconciliation(store, down, GRACE, Duration.ofSeconds(2)), later);

        assertThat(failed).isEqualTo(new GhostReconciliation.Report(0, 0, 1, 0));
        assertThat(store.available("sku-mug")).as("held until voided").isEqualTo(8);

        GhostReconciliation.Report next = run(later.plusSeconds(60));

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
        // as a reconciliation did before VOIDING existed (an attempt left so by an older version is still found):
        long token = store.begin("k-6", request.fingerprint(), orderId, reconciled, LEASE)
                .attempt()
                .token();
        payments.voidAuthorization("k-6", Duration.ofSeconds(2));
        store.release("k-6", token, orderId, reconciled);
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

    /**
     * Issue 36, hole 1 (with a crash): the run voided the authorization, then died before it released the stock (a
     * throttled release, the function's timeout, a killed sandbox). Nothing recorded the void, so a client's retry
     * took the attempt over, found its reservation held, was answered the same (now void) authorization by the
     * provider (a payment API replays its answer to a repeated key) and placed an order nobody can collect.
     */
    @Test
    void aClientRetryAfterARunThatDiedBetweenTheVoidAndTheReleasePlacesNothingAndTheNextRunEndsIt() {
        crashedAfterTheAuthorization("k-7");
        String orderId = CheckoutService.orderIdOf("k-7");
        PaymentProvider diesAfterTheVoid = new PaymentProvider() {
            @Override
            public Outcome authorize(Authorization request, Duration timeout) {
                return payments.authorize(request, timeout);
            }

            @Override
            public VoidOutcome voidAuthorization(String idempotencyKey, Duration timeout) {
                payments.voidAuthorization(idempotencyKey, timeout);
                throw new IllegalStateException("the reconciliation's sandbox died after the void");
            }
        };
        Instant run = T0.plus(LEASE).plus(GRACE).plusSeconds(1);
        assertThatThrownBy(
                        () -> run(new GhostReconciliation(store, diesAfterTheVoid, GRACE, Duration.ofSeconds(2)), run))
                .hasMessageContaining("died after the void");

        Instant retry = run.plus(LEASE).plusSeconds(1);
        CheckoutOutcome answer = checkout.place("k-7", request, retry, retry.plusSeconds(30));

        assertThat(answer).as("the returning client's answer").isEqualTo(new CheckoutOutcome.Abandoned());
        assertThat(store.order(orderId)).as("no order on a void authorization").isEmpty();
        GhostReconciliation.Report next = run(retry.plus(GRACE).plus(LEASE));
        assertThat(next.voided()).as("the next run ends it").isEqualTo(1);
        assertThat(store.available("sku-mug")).isEqualTo(10);
        assertThat(store.abandoned(retry.plus(Duration.ofDays(1)), 10)).isEmpty();
    }

    /**
     * Issue 36, holes 1 and 2 (no crash): a run reached an attempt after its void of another took longer than a
     * lease, and took it with a lease computed from the run's start, already over. The client's retry took it over
     * while the run worked on it, and was authorized (a new charge); the run's release, not fenced by the attempt's
     * token, landed before the client's place, which was refused; the client's next retry found the reservation
     * released and ended the attempt VOIDED without voiding its own authorization: a charge standing with no order.
     */
    @Test
    void aClientRetryRacingARunLeavesNoChargeWithoutAnOrder() throws Exception {
        crashedAfterTheAuthorization("k-8");
        String orderId = CheckoutService.orderIdOf("k-9");
        Instant second = T0.plusSeconds(1); // listed after k-8
        store.begin("k-9", request.fingerprint(), orderId, second, LEASE);
        store.reserve(orderId, request.items(), "EUR", second); // reserved, never authorized
        ManualClock clock = new ManualClock(T0.plus(LEASE).plus(GRACE).plusSeconds(10));
        CountDownLatch runReleasingK9 = new CountDownLatch(1);
        CountDownLatch clientAboutToPlace = new CountDownLatch(1);
        PaymentProvider slowVoids = new PaymentProvider() {
            @Override
            public Outcome authorize(Authorization request, Duration timeout) {
                return payments.authorize(request, timeout);
            }

            @Override
            public VoidOutcome voidAuthorization(String idempotencyKey, Duration timeout) {
                if (idempotencyKey.equals("k-8")) {
                    clock.advance(LEASE.multipliedBy(2)); // a void that took two leases
                }
                return payments.voidAuthorization(idempotencyKey, timeout);
            }
        };
        CheckoutStore releaseWaitsForTheClient = pausedBefore(
                "release", args -> args[0].equals(orderId) || args[args.length - 2].equals(orderId), () -> {
                    runReleasingK9.countDown();
                    await(clientAboutToPlace);
                });
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            Future<GhostReconciliation.Report> running = runner.submit(
                    () -> new GhostReconciliation(releaseWaitsForTheClient, slowVoids, GRACE, Duration.ofSeconds(2))
                            .run(clock, clock.instant().plus(Duration.ofMinutes(10)), LEASE, 100));
            await(runReleasingK9);
            CheckoutStore placingWaitsForTheRun = pausedBefore("place", args -> true, () -> {
                clientAboutToPlace.countDown();
                running.get(10, TimeUnit.SECONDS);
            });
            CheckoutService client =
                    new CheckoutService(placingWaitsForTheRun, payments, CheckoutService.Settings.DEFAULT);

            List<CheckoutOutcome> answers = new java.util.ArrayList<>();
            answers.add(client.place(
                    "k-9", request, clock.instant(), clock.instant().plusSeconds(30)));
            clientAboutToPlace.countDown();
            running.get(10, TimeUnit.SECONDS);
            Instant later = clock.instant().plus(Duration.ofHours(1));
            answers.add(client.place("k-9", request, later, later.plusSeconds(30)));
            run(later.plus(Duration.ofHours(1)));

            assertThat(answers).last().as("the client's final answer").isEqualTo(new CheckoutOutcome.Abandoned());
            assertThat(payments.charges())
                    .as("every charge is void or has its order")
                    .allSatisfy(c -> assertThat(c.voided()
                                    || store.order(c.request().orderId()).isPresent())
                            .as(
                                    "charge %s under %s",
                                    c.authorizationId(), c.request().idempotencyKey())
                            .isTrue());
            assertThat(store.order(orderId)).isEmpty();
            assertThat(store.available("sku-mug")).isEqualTo(10);
            assertThat(store.abandoned(later.plus(Duration.ofDays(1)), 10)).isEmpty();
        } finally {
            runner.shutdownNow();
        }
    }

    interface Step {
        void run() throws Exception;
    }

    static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other side never came");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The store, but the first call of {@code method} whose arguments match first runs {@code before}. */
    CheckoutStore pausedBefore(String method, java.util.function.Predicate<Object[]> match, Step before) {
        java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
        return (CheckoutStore) java.lang.reflect.Proxy.newProxyInstance(
                CheckoutStore.class.getClassLoader(), new Class<?>[] {CheckoutStore.class}, (proxy, m, args) -> {
                    if (m.getName().equals(method) && match.test(args) && once.compareAndSet(false, true)) {
                        before.run();
                    }
                    try {
                        return m.invoke(store, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void placedOrdersAndAClientRetryInFlightAreLeftAlone() {
        assertThat(checkout.place("k-4", request, T0, T0.plusSeconds(30))).isInstanceOf(CheckoutOutcome.Placed.class);

        GhostReconciliation.Report report = run(T0.plus(Duration.ofHours(1)));

        assertThat(report).isEqualTo(new GhostReconciliation.Report(0, 0, 0, 0));
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
        run(T0.plus(Duration.ofHours(1)));

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
