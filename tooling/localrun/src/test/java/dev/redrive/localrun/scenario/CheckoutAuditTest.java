package dev.redrive.localrun.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.checkout.placing.CheckoutAttempt;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.CheckoutStore;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.OrderLine;
import dev.redrive.checkout.placing.PlacedOrder;
import dev.redrive.localrun.scenario.CheckoutTraffic.Checkout;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import dev.redrive.localstack.CheckoutTables;
import dev.redrive.localstack.PaymentProviderSimulator.Charge;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The producer's checker finds what it is there to find: each of its rules, on local DynamoDB, passes a consistent
 * table and flags the one thing broken in it.
 */
class CheckoutAuditTest {

    private static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");

    private final DynamoDbClient dynamoDb = LocalAws.shared().dynamoDb();
    private String table;
    private DynamoDbCheckoutStore store;
    private String sku;
    private final List<Charge> charges = new ArrayList<>();
    private final Map<String, Checkout> answered = new HashMap<>();

    @BeforeEach
    void table() {
        table = "orders-" + UUID.randomUUID();
        CheckoutTables.createOrdersTable(dynamoDb, table);
        store = new DynamoDbCheckoutStore(dynamoDb, table);
        sku = "sku-" + UUID.randomUUID();
        store.stock(sku, 10, 500, "EUR");
    }

    @Test
    void aConsistentTablePassesEveryRule() {
        place("k-1", true);
        place("k-2", true);
        decline("k-3");

        CheckoutAudit.Verdict v = audit();

        assertThat(v.passed()).as("%s", v).isTrue();
        assertThat(v.orders()).extracting(Order::orderId).containsExactlyInAnyOrder(orderOf("k-1"), orderOf("k-2"));
        assertThat(v.placedAnswers()).isEqualTo(2);
        assertThat(v.finalRefusals()).isEqualTo(1);
        assertThat(v.attemptsByStatus()).containsEntry("PLACED", 2L).containsEntry("DECLINED", 1L);
    }

    @Test
    void aTwoHundredAndOneWithoutItsOrderAndARefusalWithOneAreFlagged() {
        place("k-1", true);
        answered.put(
                "k-ghost", new Checkout("k-ghost", "a@example.com", "tok", "EUR", 201, null, order("k-ghost"), false));
        place("k-refused", true);
        answered.put("k-refused", answered.get("k-refused").answered(402, "PaymentDeclined", null, false));

        CheckoutAudit.Verdict v = audit();

        assertThat(v.answersWithoutTheirOrder())
                .hasSize(2)
                .anyMatch(s -> s.startsWith("k-ghost was answered 201, but its order does not exist"))
                .anyMatch(s -> s.startsWith("k-refused was answered 402"));
        assertThat(v.passed()).isFalse();
    }

    @Test
    void anOrderChargedTwiceAndAChargeWithoutAnOrderAreFlagged() {
        place("k-1", true);
        charges.add(new Charge("k-1", "auth-again", orderOf("k-1"), 500, "EUR", false));
        charges.add(new Charge("k-lost", "auth-lost", orderOf("k-lost"), 500, "EUR", false));

        CheckoutAudit.Verdict v = audit();

        assertThat(v.wrongCharges()).containsExactly("order " + orderOf("k-1") + ": 2 standing charges");
        assertThat(v.chargesStandingWithoutOrder()).containsExactly("a charge under k-lost stands without an order");
    }

    @Test
    void anOpenAttemptAHeldReservationStockThatDoesNotAddUpAndAnUnpublishedEventAreFlagged() {
        place("k-1", false);
        CheckoutStore.Begin begun = store.begin("k-open", "fp", orderOf("k-open"), NOW, Duration.ofSeconds(20));
        store.reserve(orderOf("k-open"), List.of(new OrderLine(sku, 2)), "EUR", NOW);
        store.stock(sku, 6, 500, "EUR"); // a unit gone that no order took: 10 - 1 confirmed - 2 held is 7

        CheckoutAudit.Verdict v = audit();

        assertThat(v.openAttempts())
                .containsExactly("k-open left STARTED (token " + begun.attempt().token() + ")");
        assertThat(v.orphanReservations())
                .containsExactly("order " + orderOf("k-open") + " line " + sku + " HELD without an order");
        assertThat(v.stockMismatches()).containsExactly(sku + ": 6 available, 7 expected");
        assertThat(v.unpublished()).containsExactly("order " + orderOf("k-1") + "'s event unpublished");
    }

    /** An attempt left VOIDING (a reconciliation died before it ended it) is open until a run ends it. */
    @Test
    void anAttemptLeftVoidingIsOpen() {
        CheckoutStore.Begin begun = store.begin("k-void", "fp", orderOf("k-void"), NOW, Duration.ofSeconds(20));
        long voiding = store.voiding("k-void", begun.attempt().token(), NOW.plusSeconds(60), Duration.ofSeconds(10))
                .orElseThrow()
                .token();

        assertThat(audit().openAttempts()).containsExactly("k-void left VOIDING (token " + voiding + ")");
    }

    private CheckoutAudit.Verdict audit() {
        return CheckoutAudit.audit(dynamoDb, table, charges, answered, Optional.of(Map.of(sku, 10L)));
    }

    /** One unit of the sku placed under {@code key} and charged once; its event published or not. */
    private void place(String key, boolean published) {
        String orderId = orderOf(key);
        CheckoutStore.Begin begun = store.begin(key, "fp", orderId, NOW, Duration.ofSeconds(20));
        store.reserve(orderId, List.of(new OrderLine(sku, 1)), "EUR", NOW);
        store.authorized(key, begun.attempt().token(), "auth-" + key);
        PlacedOrder order = new PlacedOrder(
                orderId,
                CheckoutService.eventIdOf(orderId),
                "a@example.com",
                List.of(new PlacedOrder.PricedLine(sku, 1, 500)),
                500,
                "EUR",
                NOW,
                "auth-" + key);
        assertThat(store.place(key, begun.attempt().token(), order, CheckoutService.orderPlaced(order)))
                .isTrue();
        if (published) {
            store.markPublished(orderId, CheckoutService.ORDER_PLACED_SEQUENCE, NOW);
        }
        charges.add(new Charge(key, "auth-" + key, orderId, 500, "EUR", false));
        answered.put(key, new Checkout(key, "a@example.com", "tok", "EUR", 201, null, order(key), false));
    }

    /** Declined: its reservation released, its attempt ended, no charge; answered 402. */
    private void decline(String key) {
        String orderId = orderOf(key);
        CheckoutStore.Begin begun = store.begin(key, "fp", orderId, NOW, Duration.ofSeconds(20));
        store.reserve(orderId, List.of(new OrderLine(sku, 1)), "EUR", NOW);
        store.release(key, begun.attempt().token(), orderId, NOW);
        store.finish(key, begun.attempt().token(), CheckoutAttempt.Status.DECLINED, "no");
        answered.put(
                key, new Checkout(key, "a@example.com", "tok_decline", "EUR", 402, "PaymentDeclined", null, false));
    }

    private static Order order(String key) {
        String orderId = orderOf(key);
        return new Order(CheckoutService.eventIdOf(orderId), orderId, 500, "EUR", 2);
    }

    private static String orderOf(String key) {
        return CheckoutService.orderIdOf(key);
    }
}
