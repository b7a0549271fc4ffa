package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.checkout.placing.CheckoutAttempt.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link CheckoutStore}, for the in-memory fake and DynamoDB: an attempt is begun once per key and
 * taken over only after its lease, by the same body; a reservation is all lines or none, once per order; an order and
 * its outbox event are written once, only by the invocation holding the attempt.
 */
public abstract class CheckoutStoreContract {

    protected static final Instant T0 = Instant.parse("2026-12-04T10:00:00.123Z");
    static final Duration LEASE = Duration.ofSeconds(35);

    protected abstract CheckoutStore store();

    /** The same store, as the relay sees its outbox. */
    protected abstract Outbox outbox();

    String key;
    String orderId;
    String mug;
    String tea;

    void fresh() {
        key = "idem-" + UUID.randomUUID();
        orderId = CheckoutService.orderIdOf(key);
        mug = "mug-" + UUID.randomUUID();
        tea = "tea-" + UUID.randomUUID();
        store().stock(mug, 10, 1250, "EUR");
        store().stock(tea, 3, 499, "EUR");
    }

    List<OrderLine> lines() {
        return List.of(new OrderLine(mug, 2), new OrderLine(tea, 1));
    }

    @Test
    void aKeyIsBegunOnceAndItsDuplicateIsInFlightUntilTheLeaseLapsesThenTakenOverWithTheNextToken() {
        fresh();
        CheckoutStore.Begin first = store().begin(key, "fp-1", orderId, T0, LEASE);
        CheckoutStore.Begin duplicate = store().begin(key, "fp-1", "ignored", T0.plusSeconds(1), LEASE);
        CheckoutStore.Begin takeover = store().begin(key, "fp-1", "ignored", T0.plus(LEASE), LEASE);

        assertThat(first).isInstanceOf(CheckoutStore.Started.class);
        assertThat(first.attempt())
                .isEqualTo(
                        new CheckoutAttempt(key, "fp-1", orderId, Status.STARTED, 1, T0.plus(LEASE), null, null, T0));
        assertThat(duplicate).isInstanceOf(CheckoutStore.InFlight.class);
        assertThat(duplicate.attempt()).isEqualTo(first.attempt());
        assertThat(takeover).isInstanceOf(CheckoutStore.Started.class);
        assertThat(takeover.attempt().token()).isEqualTo(2);
        assertThat(takeover.attempt().orderId())
                .as("the order the key named first")
                .isEqualTo(orderId);
        assertThat(takeover.attempt().leaseUntil()).isEqualTo(T0.plus(LEASE).plus(LEASE));
    }

    @Test
    void anotherBodyUnderTheKeyIsKeyReusedEvenAfterTheLease() {
        fresh();
        store().begin(key, "fp-1", orderId, T0, LEASE);

        assertThat(store().begin(key, "fp-2", orderId, T0.plusSeconds(1), LEASE))
                .isInstanceOf(CheckoutStore.KeyReused.class);
        assertThat(store().begin(key, "fp-2", orderId, T0.plus(LEASE).plusSeconds(1), LEASE))
                .isInstanceOf(CheckoutStore.KeyReused.class);
    }

    @Test
    void aFinishedAttemptIsFinishedForGoodAndOnlyItsHolderFinishesIt() {
        fresh();
        long token = store().begin(key, "fp-1", orderId, T0, LEASE).attempt().token();

        assertThat(store().finish(key, token + 1, Status.DECLINED, "card_declined"))
                .isFalse();
        assertThat(store().finish(key, token, Status.DECLINED, "card_declined")).isTrue();
        CheckoutStore.Begin again =
                store().begin(key, "fp-1", orderId, T0.plus(LEASE).plusSeconds(1), LEASE);

        assertThat(again).isInstanceOf(CheckoutStore.Finished.class);
        assertThat(again.attempt().status()).isEqualTo(Status.DECLINED);
        assertThat(again.attempt().reason()).isEqualTo("card_declined");
        assertThatThrownBy(() -> store().finish(key, token, Status.PLACED, "no"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anAttemptLetGoIsTakenOverAtOnceAndKeepsItsAuthorization() {
        fresh();
        long token = store().begin(key, "fp-1", orderId, T0, LEASE).attempt().token();
        assertThat(store().authorized(key, token, "auth-1")).isTrue();

        store().letGo(key, token, T0.plusSeconds(1));
        CheckoutStore.Begin retry = store().begin(key, "fp-1", orderId, T0.plusSeconds(1), LEASE);

        assertThat(retry).isInstanceOf(CheckoutStore.Started.class);
        assertThat(retry.attempt().status()).isEqualTo(Status.AUTHORIZED);
        assertThat(retry.attempt().authorizationId()).isEqualTo("auth-1");
        assertThat(store().authorized(key, token, "auth-stale"))
                .as("the old token is fenced")
                .isFalse();
    }

    @Test
    void aReservationTakesEveryLineOrNoneAndIsMadeOncePerOrder() {
        fresh();
        CheckoutStore.Reservation short_ =
                store().reserve(orderId, List.of(new OrderLine(mug, 2), new OrderLine(tea, 4)), "EUR", T0);
        assertThat(short_).isEqualTo(new CheckoutStore.OutOfStock(List.of(tea)));
        assertThat(store().available(mug)).as("none of it").isEqualTo(10);

        CheckoutStore.Reservation made = store().reserve(orderId, lines(), "EUR", T0);
        CheckoutStore.Reservation again = store().reserve(orderId, lines(), "EUR", T0.plusSeconds(40));

        List<PlacedOrder.PricedLine> priced =
                List.of(new PlacedOrder.PricedLine(mug, 2, 1250), new PlacedOrder.PricedLine(tea, 1, 499));
        assertThat(made).isEqualTo(new CheckoutStore.Reserved(priced));
        assertThat(again)
                .isInstanceOfSatisfying(
                        CheckoutStore.Reserved.class,
                        r -> assertThat(r.lines()).containsExactlyInAnyOrderElementsOf(priced));
        assertThat(store().available(mug)).isEqualTo(8);
        assertThat(store().available(tea)).isEqualTo(2);
    }

    @Test
    void anUnknownSkuOrAnotherCurrencyIsNotSold() {
        fresh();
        assertThat(store().reserve(orderId, List.of(new OrderLine("nope-" + UUID.randomUUID(), 1)), "EUR", T0))
                .isInstanceOf(CheckoutStore.OutOfStock.class);
        assertThat(store().reserve(orderId, List.of(new OrderLine(mug, 1)), "USD", T0))
                .isEqualTo(new CheckoutStore.OutOfStock(List.of(mug)));
        assertThat(store().available(mug)).isEqualTo(10);
    }

    @Test
    void aReleaseGivesTheStockBackOnce() {
        fresh();
        long token = store().begin(key, "fp-1", orderId, T0, LEASE).attempt().token();
        store().reserve(orderId, lines(), "EUR", T0);

        assertThat(store().release(key, token, orderId, T0)).isTrue();
        assertThat(store().release(key, token, orderId, T0))
                .as("again: nothing held, still ours")
                .isTrue();

        assertThat(store().available(mug)).isEqualTo(10);
        assertThat(store().available(tea)).isEqualTo(3);
    }

    @Test
    void aReleasedReservationIsNeverReservedAgain() {
        fresh();
        long token = store().begin(key, "fp-1", orderId, T0, LEASE).attempt().token();
        store().reserve(orderId, lines(), "EUR", T0);
        store().release(key, token, orderId, T0);

        assertThat(store().reserve(orderId, lines(), "EUR", T0.plusSeconds(1)))
                .isInstanceOf(CheckoutStore.Released.class);
        assertThat(store().available(mug))
                .as("stock given back once, not taken again")
                .isEqualTo(10);
        assertThat(store().available(tea)).isEqualTo(3);
    }

    @Test
    void theHolderPlacesTheOrderAndItsOutboxEventOnceAndAStaleTokenPlacesNothing() {
        fresh();
        long stale = store().begin(key, "fp-1", orderId, T0, LEASE).attempt().token();
        store().reserve(orderId, lines(), "EUR", T0);
        long holder = store().begin(key, "fp-1", orderId, T0.plus(LEASE), LEASE)
                .attempt()
                .token();
        PlacedOrder order = order("auth-1");
        OutboxEvent event = CheckoutService.orderPlaced(order);

        assertThat(store().place(key, stale, order, event)).isFalse();
        assertThat(store().order(orderId)).isEmpty();
        assertThat(store().place(key, holder, order, event)).isTrue();
        assertThat(store().place(key, holder, order, event)).as("once").isFalse();

        assertThat(store().order(orderId)).contains(order);
        assertThat(store().outbox(orderId)).containsExactly(event);
        assertThat(store().begin(key, "fp-1", orderId, T0.plus(LEASE).plusSeconds(1), LEASE))
                .isInstanceOfSatisfying(
                        CheckoutStore.Finished.class,
                        f -> assertThat(f.attempt().status()).isEqualTo(Status.PLACED));
        store().release(key, holder, orderId, T0);
        assertThat(store().available(mug))
                .as("a confirmed reservation is not released")
                .isEqualTo(8);
    }

    @Test
    void anOrderPlacedAtAnyInstantReadsBackAsTheOrderAnsweredAndItsEventSaysTheSameTime() {
        fresh();
        long token = store().begin(key, "fp-1", orderId, T0, LEASE).attempt().token();
        store().reserve(orderId, lines(), "EUR", T0);
        PlacedOrder order = order("auth-1", T0.plusNanos(456_789));
        OutboxEvent event = CheckoutService.orderPlaced(order);

        assertThat(store().place(key, token, order, event)).isTrue();

        assertThat(store().order(orderId)).contains(order);
        assertThat(store().outbox(orderId)).containsExactly(event);
        assertThat(event.payload()).contains("\"placedAt\":\"" + order.placedAt() + "\"");
    }

    @Test
    void aReleasedReservationCannotBePlaced() {
        fresh();
        long token = store().begin(key, "fp-1", orderId, T0, LEASE).attempt().token();
        store().reserve(orderId, lines(), "EUR", T0);
        store().release(key, token, orderId, T0);

        PlacedOrder order = order("auth-1");
        assertThat(store().place(key, token, order, CheckoutService.orderPlaced(order)))
                .isFalse();
        assertThat(store().outbox(orderId)).isEmpty();
    }

    /** Issue 36, hole 2: a release by an invocation that lost the attempt gave the stock back under the holder. */
    @Test
    void aReleaseByAnInvocationThatLostTheAttemptReleasesNothing() {
        fresh();
        long stale = store().begin(key, "fp-1", orderId, T0, LEASE).attempt().token();
        store().reserve(orderId, lines(), "EUR", T0);
        long holder = store().begin(key, "fp-1", orderId, T0.plus(LEASE), LEASE)
                .attempt()
                .token();

        assertThat(store().release(key, stale, orderId, T0.plus(LEASE))).isFalse();
        assertThat(store().available(mug)).as("still held for the holder").isEqualTo(8);
        assertThat(store().reserve(orderId, lines(), "EUR", T0.plus(LEASE))).isInstanceOf(CheckoutStore.Reserved.class);
        assertThat(store().release(key, holder, orderId, T0.plus(LEASE))).isTrue();
        assertThat(store().available(mug)).isEqualTo(10);
    }

    /**
     * Issue 36, hole 1: once an attempt is VOIDING no invocation places it: a client's begin is answered
     * {@link CheckoutStore.Voiding} however long ago its lease ended, the token of the holder before is fenced, and only
     * the VOIDING holder (or whoever takes it over by its token) ends it; it stays listed as abandoned until it ends.
     */
    @Test
    void aVoidingAttemptIsNeverTakenByABeginNorPlacedAndOnlyItsHolderEndsIt() {
        fresh();
        long client = store().begin(key, "fp-1", orderId, T0, LEASE).attempt().token();
        store().reserve(orderId, lines(), "EUR", T0);
        store().authorized(key, client, "auth-1");
        Instant run = T0.plus(LEASE).plusSeconds(60);

        CheckoutAttempt voiding = store().voiding(key, client, run, LEASE).orElseThrow();

        assertThat(voiding.status()).isEqualTo(Status.VOIDING);
        assertThat(voiding.token()).isEqualTo(client + 1);
        assertThat(voiding.leaseUntil()).isEqualTo(run.plus(LEASE));
        assertThat(voiding.authorizationId()).isEqualTo("auth-1");
        assertThat(store().voiding(key, client, run, LEASE))
                .as("by a token no longer held")
                .isEmpty();
        assertThat(store().begin(key, "fp-1", orderId, run.plus(Duration.ofDays(1)), LEASE))
                .as("a client's retry, even long after its lease")
                .isInstanceOfSatisfying(
                        CheckoutStore.Voiding.class,
                        v -> assertThat(v.attempt().token()).isEqualTo(voiding.token()));
        PlacedOrder order = order("auth-1");
        assertThat(store().place(key, client, order, CheckoutService.orderPlaced(order)))
                .isFalse();
        assertThat(store().place(key, voiding.token(), order, CheckoutService.orderPlaced(order)))
                .as("not even by its holder")
                .isFalse();
        assertThat(store().authorized(key, voiding.token(), "auth-2")).isFalse();
        assertThat(store().abandoned(run.plus(Duration.ofDays(1)), 10))
                .extracting(CheckoutAttempt::key)
                .as("listed until it ends")
                .contains(key);

        store().letGo(key, voiding.token(), T0);
        CheckoutAttempt retaken =
                store().voiding(key, voiding.token(), run.plusSeconds(1), LEASE).orElseThrow();
        assertThat(store().release(key, voiding.token(), orderId, run))
                .as("the token before")
                .isFalse();
        assertThat(store().release(key, retaken.token(), orderId, run)).isTrue();
        assertThat(store().finish(key, retaken.token(), Status.VOIDED, "abandoned"))
                .isTrue();

        assertThat(store().available(mug)).isEqualTo(10);
        assertThat(store().abandoned(run.plus(Duration.ofDays(1)), 10))
                .extracting(CheckoutAttempt::key)
                .doesNotContain(key);
        assertThat(store().begin(key, "fp-1", orderId, run.plus(Duration.ofDays(1)), LEASE))
                .isInstanceOfSatisfying(
                        CheckoutStore.Finished.class,
                        f -> assertThat(f.attempt().status()).isEqualTo(Status.VOIDED));
        assertThat(store().voiding(key, retaken.token(), run, LEASE))
                .as("a finished attempt")
                .isEmpty();
    }

    @Test
    void ofInvocationsRacingToBeginOneKeyExactlyOneHoldsIt() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 10; round++) {
                fresh();
                CyclicBarrier start = new CyclicBarrier(4);
                List<Future<CheckoutStore.Begin>> begun = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    begun.add(pool.submit((Callable<CheckoutStore.Begin>) () -> {
                        start.await(10, TimeUnit.SECONDS);
                        return store().begin(key, "fp-1", orderId, T0, LEASE);
                    }));
                }
                int started = 0;
                for (Future<CheckoutStore.Begin> b : begun) {
                    started += b.get(30, TimeUnit.SECONDS) instanceof CheckoutStore.Started ? 1 : 0;
                }
                assertThat(started).as("round %d", round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Places an order for a fresh key, written at {@code at}; returns its event. */
    OutboxEvent placedAt(Instant at) {
        fresh();
        long token = store().begin(key, "fp-1", orderId, at, LEASE).attempt().token();
        store().reserve(orderId, lines(), "EUR", at);
        PlacedOrder order = order("auth-1", at);
        OutboxEvent event = CheckoutService.orderPlaced(order);
        assertThat(store().place(key, token, order, event)).isTrue();
        return event;
    }

    @Test
    void aPlacedOrdersEventIsUnpublishedUntilMarkedAndTheFirstMarkCounts() {
        Instant at = Instant.parse("2020-01-01T00:00:00Z").plusSeconds(new java.util.Random().nextInt(1_000_000));
        OutboxEvent event = placedAt(at);

        assertThat(outbox().unpublished(at.plusMillis(1), 1000)).contains(event);
        assertThat(outbox().publishedAt(event.orderId(), 1)).isEmpty();

        outbox().markPublished(event.orderId(), 1, at.plusSeconds(1));
        outbox().markPublished(event.orderId(), 1, at.plusSeconds(9));

        assertThat(outbox().publishedAt(event.orderId(), 1)).contains(at.plusSeconds(1));
        assertThat(outbox().unpublished(at.plusMillis(1), 1000)).doesNotContain(event);
        assertThatThrownBy(() -> outbox().markPublished(event.orderId(), 2, at))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theUnpublishedAreListedOldestFirstWrittenBeforeTheCutOnlyAndUpToTheLimit() {
        Instant base = Instant.parse("2019-01-01T00:00:00Z");
        OutboxEvent oldest = placedAt(base);
        OutboxEvent older = placedAt(base.plusSeconds(10));
        OutboxEvent recent = placedAt(base.plusSeconds(20));

        assertThat(outbox().unpublished(base.plusSeconds(15), 1000))
                .containsSubsequence(oldest, older)
                .doesNotContain(recent);
        assertThat(outbox().unpublished(base.plusSeconds(15), 1)).containsExactly(oldest);
    }

    @Test
    void unfinishedAttemptsPastTheirLeaseAreListedAbandonedAndFinishedOnesNever() {
        Instant base = Instant.parse("2018-01-01T00:00:00Z").plusSeconds(new java.util.Random().nextInt(1_000_000));
        fresh();
        String started = key;
        store().begin(started, "fp-1", orderId, base, LEASE);
        fresh();
        String authorized = key;
        long token = store().begin(authorized, "fp-1", orderId, base.plusSeconds(1), LEASE)
                .attempt()
                .token();
        store().authorized(authorized, token, "auth-1");
        fresh();
        String declined = key;
        long declinedToken =
                store().begin(declined, "fp-1", orderId, base, LEASE).attempt().token();
        store().finish(declined, declinedToken, Status.DECLINED, "card_declined");
        OutboxEvent placed = placedAt(base);

        List<CheckoutAttempt> abandoned = store().abandoned(base.plus(LEASE).plusSeconds(2), 1000);

        assertThat(abandoned)
                .extracting(CheckoutAttempt::key)
                .contains(started, authorized)
                .doesNotContain(declined, key);
        assertThat(abandoned.stream()
                        .filter(a -> a.key().equals(authorized))
                        .findFirst()
                        .orElseThrow())
                .satisfies(a -> {
                    assertThat(a.status()).isEqualTo(Status.AUTHORIZED);
                    assertThat(a.authorizationId()).isEqualTo("auth-1");
                    assertThat(a.fingerprint()).isEqualTo("fp-1");
                });
        assertThat(store().abandoned(base.plus(LEASE), 1000))
                .extracting(CheckoutAttempt::key)
                .as("a lease that has not ended")
                .doesNotContain(started, authorized);
        assertThat(placed.orderId()).isEqualTo(orderId);
    }

    @Test
    void aBatchOfMarksIsAllOrNone() {
        Instant at = Instant.parse("2017-01-01T00:00:00Z").plusSeconds(new java.util.Random().nextInt(1_000_000));
        List<OutboxEvent> events = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            events.add(placedAt(at.plusMillis(i)));
        }
        OutboxEvent missing = new OutboxEvent("o-none-" + UUID.randomUUID(), 1, "evt-x", "OrderPlaced", "{}", at);
        List<OutboxEvent> withAMissingOne = new ArrayList<>(events);
        withAMissingOne.add(1, missing);

        assertThatThrownBy(() -> outbox().markAllPublished(withAMissingOne, at.plusSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(missing.orderId());
        assertThat(events)
                .allSatisfy(
                        e -> assertThat(outbox().publishedAt(e.orderId(), 1)).isEmpty());

        outbox().markAllPublished(events, at.plusSeconds(2));

        assertThat(events)
                .allSatisfy(
                        e -> assertThat(outbox().publishedAt(e.orderId(), 1)).contains(at.plusSeconds(2)));
        assertThat(outbox().unpublished(at.plusSeconds(60), 1000)).doesNotContainAnyElementsOf(events);
    }

    PlacedOrder order(String authorizationId) {
        return order(authorizationId, T0);
    }

    /** The order of {@link #lines()} at their stocked prices, placed at {@code at}. */
    PlacedOrder order(String authorizationId, Instant at) {
        return new PlacedOrder(
                orderId,
                CheckoutService.eventIdOf(orderId),
                "ada@example.com",
                List.of(new PlacedOrder.PricedLine(mug, 2, 1250), new PlacedOrder.PricedLine(tea, 1, 499)),
                2999,
                "EUR",
                at,
                authorizationId);
    }
}
