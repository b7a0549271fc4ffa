package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The orders table's TTL attribute on local AWS: what carries {@code expiresAt} and when it says (moto never expires
 * an item, so the values and their absence are what is asserted). Only a finished attempt and a published outbox event
 * carry it; an unfinished attempt, an unpublished event, the order, its reservation and stock never do.
 */
class OrderRetentionTest {

    static final Duration ATTEMPTS = Duration.ofDays(30);
    static final Duration EVENTS = Duration.ofDays(7);
    static final Instant PLACED = Instant.parse("2026-03-01T10:00:00.250Z");
    static final Instant FINISHED = Instant.parse("2026-03-02T08:30:00.900Z");

    final OrdersTableRig rig = new OrdersTableRig();
    final DynamoDbCheckoutStore store =
            rig.store(OrderRetention.of(ATTEMPTS, EVENTS), Clock.fixed(FINISHED, ZoneOffset.UTC));

    @Test
    void aPlacedCheckoutsAttemptExpiresItsRetentionAfterItWasPlacedAndNothingElseOfItCarriesAnExpiry() {
        String key = rig.nextKey();
        long token = OrdersTableRig.begin(store, key, PLACED);
        assertThat(attempt(key)).as("an unfinished attempt").doesNotContainKey("expiresAt");

        OutboxEvent event = rig.place(store, key, token, PLACED);

        assertThat(expiresAt(attempt(key))).contains(PLACED.plus(ATTEMPTS).getEpochSecond());
        String orderId = event.orderId();
        assertThat(rig.item("order#" + orderId, "order"))
                .as("the order")
                .containsKey("orderId")
                .doesNotContainKey("expiresAt");
        assertThat(rig.outboxItem(orderId))
                .as("an unpublished event")
                .containsKey("unpublished")
                .doesNotContainKey("expiresAt");
        String sku = OrdersTableRig.sku(key.hashCode());
        assertThat(rig.item("order#" + orderId, "reservation#" + sku))
                .as("the reservation")
                .containsKey("state")
                .doesNotContainKey("expiresAt");
        assertThat(rig.item("sku#" + sku, "stock"))
                .as("the stock")
                .containsKey("available")
                .doesNotContainKey("expiresAt");
    }

    @Test
    void anAttemptFinishedWithoutAnOrderExpiresItsRetentionAfterItFinishedAndOnlyThen() {
        String key = rig.nextKey();
        long token = OrdersTableRig.begin(store, key, PLACED);
        assertThat(store.authorized(key, token, "auth-1")).isTrue();
        store.letGo(key, token, PLACED);
        assertThat(attempt(key)).as("authorized and let go: still unfinished").doesNotContainKey("expiresAt");

        long taken = OrdersTableRig.begin(store, key, PLACED.plusSeconds(60));
        assertThat(store.voiding(key, taken, PLACED.plusSeconds(60), Duration.ofMinutes(1)))
                .isPresent();
        assertThat(attempt(key)).as("voiding: still unfinished").doesNotContainKey("expiresAt");

        assertThat(store.finish(key, taken + 1, CheckoutAttempt.Status.VOIDED, "abandoned"))
                .isTrue();
        assertThat(expiresAt(attempt(key))).contains(FINISHED.plus(ATTEMPTS).getEpochSecond());
    }

    @Test
    void aPublishedEventExpiresItsRetentionAfterItsFirstPublicationAndAnUnpublishedOneNever() {
        OutboxEvent first = rig.placedAt(store, PLACED);
        OutboxEvent second = rig.placedAt(store, PLACED);
        OutboxEvent third = rig.placedAt(store, PLACED);
        OutboxEvent unpublished = rig.placedAt(store, PLACED);
        Instant published = PLACED.plusSeconds(2);

        store.markPublished(first.orderId(), first.sequence(), published);
        store.markPublished(first.orderId(), first.sequence(), published.plus(Duration.ofDays(3)));
        store.markAllPublished(List.of(second, third), published.plusSeconds(1));

        assertThat(expiresAt(rig.outboxItem(first.orderId())))
                .as("published twice: the first publication's expiry")
                .contains(published.plus(EVENTS).getEpochSecond());
        for (OutboxEvent e : List.of(second, third)) {
            assertThat(expiresAt(rig.outboxItem(e.orderId())))
                    .as(e.orderId())
                    .contains(published.plusSeconds(1).plus(EVENTS).getEpochSecond());
        }
        assertThat(rig.outboxItem(unpublished.orderId()))
                .containsKey("unpublished")
                .doesNotContainKey("expiresAt");
        assertThat(store.unpublished(PLACED.plusSeconds(1), 10))
                .extracting(OutboxEvent::orderId)
                .containsExactly(unpublished.orderId());
    }

    @Test
    void theStoreWithoutRetentionsWritesNoExpiryAtAll() {
        DynamoDbCheckoutStore forever = rig.store(IndexShards.DEFAULT);
        String placedKey = rig.nextKey();
        OutboxEvent event = rig.place(forever, placedKey, OrdersTableRig.begin(forever, placedKey, PLACED), PLACED);
        forever.markPublished(event.orderId(), event.sequence(), PLACED);
        String declinedKey = rig.nextKey();
        long token = OrdersTableRig.begin(forever, declinedKey, PLACED);
        assertThat(forever.finish(declinedKey, token, CheckoutAttempt.Status.DECLINED, "card declined"))
                .isTrue();

        assertThat(attempt(placedKey))
                .containsEntry("status", AttributeValue.fromS("PLACED"))
                .doesNotContainKey("expiresAt");
        assertThat(attempt(declinedKey))
                .containsEntry("status", AttributeValue.fromS("DECLINED"))
                .doesNotContainKey("expiresAt");
        assertThat(rig.outboxItem(event.orderId())).containsKey("publishedAt").doesNotContainKey("expiresAt");
    }

    @Test
    void aRetentionThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> OrderRetention.of(Duration.ZERO, EVENTS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finished attempts' retention is PT0S");
        assertThatThrownBy(() -> OrderRetention.of(ATTEMPTS, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("published events' retention is PT-1S");
        assertThat(OrderRetention.DEFAULT)
                .isEqualTo(new OrderRetention(Optional.of(Duration.ofDays(30)), Optional.of(Duration.ofDays(7))));
    }

    @Test
    void aRetryAfterItsAttemptExpiredIsAnsweredByWhatTheOrderStillHas() {
        InMemoryPaymentProvider payments = new InMemoryPaymentProvider();
        CheckoutService checkout = new CheckoutService(store, payments, CheckoutService.Settings.DEFAULT);
        store.stock("sku-rare", 1, 900, "EUR");
        Instant later = PLACED.plus(ATTEMPTS).plus(Duration.ofDays(3));

        CheckoutRequest mug =
                new CheckoutRequest("ada@example.com", List.of(new OrderLine("sku-rare", 1)), "EUR", "tok_visa");
        CheckoutOutcome placed = checkout.place("placed-key", mug, PLACED, PLACED.plusSeconds(10));
        assertThat(placed).isInstanceOf(CheckoutOutcome.Placed.class);
        CheckoutRequest two =
                new CheckoutRequest("bob@example.com", List.of(new OrderLine("sku-rare", 2)), "EUR", "tok_visa");
        assertThat(checkout.place("short-key", two, PLACED, PLACED.plusSeconds(10)))
                .isEqualTo(new CheckoutOutcome.OutOfStock(List.of("sku-rare")));
        CheckoutRequest declined =
                new CheckoutRequest("eve@example.com", List.of(new OrderLine("mug-0", 1)), "EUR", "tok_decline");
        assertThat(checkout.place("declined-key", declined, PLACED, PLACED.plusSeconds(10)))
                .isEqualTo(new CheckoutOutcome.Declined("card_declined"));
        for (String key : List.of("placed-key", "short-key", "declined-key")) { // what the TTL does, after expiresAt
            rig.dynamoDb.deleteItem(
                    b -> b.tableName(rig.table).key(DynamoDbCheckoutStore.key("checkout#" + key, "attempt")));
        }
        int calls = payments.calls();

        assertThat(checkout.place("placed-key", mug, later, later.plusSeconds(10)))
                .as("the order is still there: the same order, as a replay, after a second authorization call")
                .isEqualTo(new CheckoutOutcome.Placed(((CheckoutOutcome.Placed) placed).order(), true));
        assertThat(payments.calls()).isEqualTo(calls + 1);
        assertThat(store.available("sku-rare")).as("nothing reserved again").isZero();

        assertThat(checkout.place("declined-key", declined, later, later.plusSeconds(10)))
                .as("its reservation was released: never placed")
                .isEqualTo(new CheckoutOutcome.Abandoned());

        store.stock("sku-rare", 2, 900, "EUR");
        CheckoutOutcome shortRetried = checkout.place("short-key", two, later, later.plusSeconds(10));
        assertThat(shortRetried)
                .as("it reserved nothing: a new checkout, which places an order now")
                .isInstanceOf(CheckoutOutcome.Placed.class);
        assertThat(((CheckoutOutcome.Placed) shortRetried).replayed()).isFalse();
    }

    private Map<String, AttributeValue> attempt(String key) {
        return rig.item("checkout#" + key, "attempt");
    }

    private static Optional<Long> expiresAt(Map<String, AttributeValue> item) {
        return Optional.ofNullable(item.get("expiresAt")).map(v -> Long.parseLong(v.n()));
    }
}
