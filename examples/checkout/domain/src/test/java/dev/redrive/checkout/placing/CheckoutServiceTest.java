package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlaced;
import dev.redrive.checkout.OrderPlacedReader;
import dev.redrive.checkout.placing.InMemoryPaymentProvider.Unanswered;
import dev.redrive.core.consumer.IncomingMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The checkout's answers, one test per row of {@code POST /orders}, on the in-memory fakes of its ports: the store and
 * the payment provider (which keeps charges under their idempotency keys, as payment APIs do).
 */
class CheckoutServiceTest {

    static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");
    static final Instant DEADLINE = T0.plusSeconds(30);
    static final String KEY = "idem-1";

    final InMemoryCheckoutStore store = new InMemoryCheckoutStore();
    final InMemoryPaymentProvider payments = new InMemoryPaymentProvider();
    final CheckoutService checkout = new CheckoutService(store, payments, CheckoutService.Settings.DEFAULT);

    CheckoutServiceTest() {
        store.stock("sku-mug", 10, 1250, "EUR");
        store.stock("sku-tea", 3, 499, "EUR");
    }

    static CheckoutRequest request(String token, OrderLine... lines) {
        return new CheckoutRequest("ada@example.com", List.of(lines), "EUR", token);
    }

    static CheckoutRequest mugAndTea() {
        return request("tok_visa", new OrderLine("sku-mug", 2), new OrderLine("sku-tea", 1));
    }

    @Test
    void aCheckoutReservesChargesOnceAndWritesTheOrderWithItsOrderPlacedEvent() {
        CheckoutOutcome outcome = checkout.place(KEY, mugAndTea(), T0, DEADLINE);

        assertThat(outcome).isInstanceOfSatisfying(CheckoutOutcome.Placed.class, placed -> {
            assertThat(placed.replayed()).isFalse();
            assertThat(placed.order().amountMinor()).isEqualTo(2 * 1250 + 499);
            assertThat(placed.order().orderId()).isEqualTo(CheckoutService.orderIdOf(KEY));
        });
        assertThat(outcome.status()).isEqualTo(201);
        assertThat(payments.charges()).singleElement().satisfies(c -> {
            assertThat(c.request().amountMinor()).isEqualTo(2999);
            assertThat(c.request().idempotencyKey()).isEqualTo(KEY);
        });
        assertThat(store.available("sku-mug")).isEqualTo(8);
        assertThat(store.available("sku-tea")).isEqualTo(2);
        String orderId = CheckoutService.orderIdOf(KEY);
        assertThat(store.outbox(orderId)).singleElement().satisfies(e -> {
            assertThat(e.sequence()).isEqualTo(1);
            assertThat(e.eventId()).isEqualTo("evt-" + orderId + "-1");
        });
    }

    @Test
    void theOutboxPayloadIsAnOrderPlacedV2EveryConsumerReads() {
        checkout.place(KEY, mugAndTea(), T0, DEADLINE);
        OutboxEvent event = store.outbox(CheckoutService.orderIdOf(KEY)).get(0);

        OrderPlaced read = new OrderPlacedReader(new ObjectMapper(), new EventSchemas())
                .read(new IncomingMessage("m-1", "rh", event.payload(), Map.of(), 1, "arn:aws:sqs:q", null))
                .event();

        assertThat(read)
                .isEqualTo(new OrderPlaced(
                        event.eventId(), CheckoutService.orderIdOf(KEY), "ada@example.com", 2999, "EUR", T0));
    }

    @Test
    void theSameKeyAndBodyGetTheSame201WithNoSecondChargeOrReservation() {
        CheckoutOutcome first = checkout.place(KEY, mugAndTea(), T0, DEADLINE);
        int calls = payments.calls();

        CheckoutOutcome again = checkout.place(KEY, mugAndTea(), T0.plusSeconds(60), DEADLINE.plusSeconds(60));

        assertThat(again).isInstanceOfSatisfying(CheckoutOutcome.Placed.class, p -> {
            assertThat(p.replayed()).isTrue();
            assertThat(p.order()).isEqualTo(((CheckoutOutcome.Placed) first).order());
        });
        assertThat(payments.calls()).as("no second call to the provider").isEqualTo(calls);
        assertThat(store.available("sku-mug")).isEqualTo(8);
        assertThat(store.outbox(CheckoutService.orderIdOf(KEY))).hasSize(1);
    }

    @Test
    void theSameKeyWithAnotherBodyIs422AndChangesNothing() {
        checkout.place(KEY, mugAndTea(), T0, DEADLINE);

        CheckoutOutcome other = checkout.place(KEY, request("tok_visa", new OrderLine("sku-mug", 5)), T0, DEADLINE);

        assertThat(other).isInstanceOf(CheckoutOutcome.KeyReused.class);
        assertThat(other.status()).isEqualTo(422);
        assertThat(payments.charges()).hasSize(1);
        assertThat(store.available("sku-mug")).isEqualTo(8);
    }

    @Test
    void aDeclinedPaymentIs402WithNoOrderAndTheReservationReleasedAndStaysSoUnderItsKey() {
        CheckoutRequest declining = request("tok_decline_insufficient", new OrderLine("sku-mug", 4));

        CheckoutOutcome outcome = checkout.place(KEY, declining, T0, DEADLINE);
        int calls = payments.calls();
        CheckoutOutcome again = checkout.place(KEY, declining, T0.plusSeconds(5), DEADLINE.plusSeconds(5));

        assertThat(outcome).isEqualTo(new CheckoutOutcome.Declined("card_declined"));
        assertThat(outcome.status()).isEqualTo(402);
        assertThat(again).isEqualTo(outcome);
        assertThat(payments.calls()).isEqualTo(calls);
        assertThat(store.order(CheckoutService.orderIdOf(KEY))).isEmpty();
        assertThat(store.available("sku-mug")).isEqualTo(10);
    }

    @Test
    void outOfStockIs409WithNoChargeAndNothingReserved() {
        CheckoutOutcome tooMany = checkout.place(
                KEY, request("tok_visa", new OrderLine("sku-mug", 2), new OrderLine("sku-tea", 4)), T0, DEADLINE);
        CheckoutOutcome unknown =
                checkout.place("idem-2", request("tok_visa", new OrderLine("sku-none", 1)), T0, DEADLINE);
        CheckoutOutcome otherCurrency = checkout.place(
                "idem-3",
                new CheckoutRequest("ada@example.com", List.of(new OrderLine("sku-mug", 1)), "USD", "tok_visa"),
                T0,
                DEADLINE);

        assertThat(tooMany).isEqualTo(new CheckoutOutcome.OutOfStock(List.of("sku-tea")));
        assertThat(tooMany.status()).isEqualTo(409);
        assertThat(unknown).isEqualTo(new CheckoutOutcome.OutOfStock(List.of("sku-none")));
        assertThat(otherCurrency).isEqualTo(new CheckoutOutcome.OutOfStock(List.of("sku-mug")));
        assertThat(payments.calls()).isZero();
        assertThat(store.available("sku-mug")).isEqualTo(10);
        assertThat(store.available("sku-tea")).isEqualTo(3);
        assertThat(checkout.place(
                        KEY,
                        request("tok_visa", new OrderLine("sku-mug", 2), new OrderLine("sku-tea", 4)),
                        T0.plusSeconds(1),
                        DEADLINE))
                .as("the same answer under its key")
                .isEqualTo(tooMany);
    }

    @Test
    void aProviderThatDoesNotAnswerIs503AndTheRetryWithTheSameKeyFinishesTheOrderWithOneCharge() {
        for (Unanswered when : Unanswered.values()) {
            String key = "idem-" + when;
            payments.unavailable(1, when);

            CheckoutOutcome timedOut = checkout.place(key, mugAndTea(), T0, DEADLINE);
            CheckoutOutcome retried = checkout.place(key, mugAndTea(), T0.plusSeconds(2), DEADLINE.plusSeconds(2));

            assertThat(timedOut)
                    .as(when.name())
                    .isEqualTo(new CheckoutOutcome.ProviderUnavailable(Duration.ofSeconds(2)));
            assertThat(timedOut.status()).isEqualTo(503);
            assertThat(retried).as(when.name()).isInstanceOf(CheckoutOutcome.Placed.class);
            assertThat(payments.charges())
                    .as("one authorization under %s", key)
                    .filteredOn(c -> c.request().idempotencyKey().equals(key))
                    .hasSize(1);
        }
        assertThat(store.available("sku-mug")).as("one reservation per order").isEqualTo(10 - 2 * 2);
    }

    @Test
    void aRetryWhileTheFirstInvocationStillHoldsItsLeaseIs409InProgressAndAfterTheLeaseItTakesOver() {
        store.begin(KEY, mugAndTea().fingerprint(), CheckoutService.orderIdOf(KEY), T0, Duration.ofSeconds(35));
        store.reserve(CheckoutService.orderIdOf(KEY), mugAndTea().items(), "EUR", T0); // then the sandbox died

        CheckoutOutcome early = checkout.place(KEY, mugAndTea(), T0.plusSeconds(5), DEADLINE.plusSeconds(5));
        CheckoutOutcome afterTheLease = checkout.place(KEY, mugAndTea(), T0.plusSeconds(36), DEADLINE.plusSeconds(36));

        assertThat(early).isEqualTo(new CheckoutOutcome.InProgress(Duration.ofSeconds(30)));
        assertThat(afterTheLease).isInstanceOf(CheckoutOutcome.Placed.class);
        assertThat(store.available("sku-mug")).as("the first reservation, kept").isEqualTo(8);
        assertThat(payments.charges()).hasSize(1);
    }

    @Test
    void anInvocationThatOutlivedItsLeaseIsFencedOutOfPlacingASecondOrder() {
        String orderId = CheckoutService.orderIdOf(KEY);
        CheckoutAttempt stale = store.begin(KEY, mugAndTea().fingerprint(), orderId, T0, Duration.ofSeconds(35))
                .attempt();
        store.reserve(orderId, mugAndTea().items(), "EUR", T0);
        // frozen past its lease; the client's retry takes over and finishes
        assertThat(checkout.place(KEY, mugAndTea(), T0.plusSeconds(40), DEADLINE.plusSeconds(40)))
                .isInstanceOf(CheckoutOutcome.Placed.class);
        PlacedOrder late = store.order(orderId).orElseThrow();

        assertThat(store.authorized(KEY, stale.token(), "auth-stale")).isFalse();
        assertThat(store.place(KEY, stale.token(), late, CheckoutService.orderPlaced(late)))
                .isFalse();
        assertThat(store.outbox(orderId)).hasSize(1);
    }

    @Test
    void eightClientsRetryingOneCheckoutAtOnceMakeOneOrderOneChargeOneReservation() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 25; round++) {
                String key = "idem-race-" + round;
                store.stock("sku-race-" + round, 100, 700, "EUR");
                CheckoutRequest r = request("tok_visa", new OrderLine("sku-race-" + round, 3));
                CyclicBarrier start = new CyclicBarrier(8);
                List<Future<CheckoutOutcome>> answers = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    answers.add(pool.submit((Callable<CheckoutOutcome>) () -> {
                        start.await(10, TimeUnit.SECONDS);
                        return checkout.place(key, r, T0, DEADLINE);
                    }));
                }
                int placed = 0;
                for (Future<CheckoutOutcome> a : answers) {
                    CheckoutOutcome o = a.get(30, TimeUnit.SECONDS);
                    assertThat(o).isInstanceOfAny(CheckoutOutcome.Placed.class, CheckoutOutcome.InProgress.class);
                    placed += o instanceof CheckoutOutcome.Placed p && !p.replayed() ? 1 : 0;
                }
                assertThat(placed)
                        .as("round %d: placed by one invocation", round)
                        .isEqualTo(1);
                assertThat(store.available("sku-race-" + round)).isEqualTo(97);
                assertThat(payments.charges())
                        .filteredOn(c -> c.request().idempotencyKey().equals(key))
                        .hasSize(1);
                assertThat(store.outbox(CheckoutService.orderIdOf(key))).hasSize(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
