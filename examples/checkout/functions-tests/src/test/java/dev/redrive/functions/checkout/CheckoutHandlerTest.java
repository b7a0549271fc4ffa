package dev.redrive.functions.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.functions.testing.AdjustableClock;
import dev.redrive.localstack.CheckoutTables;
import dev.redrive.localstack.PaymentProviderSimulator;
import dev.redrive.localstack.PaymentProviderSimulator.Fault;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /orders} through the checkout handler, as a Function URL invokes it (API Gateway v2 events, headers
 * lower-cased), on local DynamoDB and the payment provider simulator: one test per row of the responses, and the
 * requests it refuses.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
// Global: a resource only this class named would make Quarkus boot the application again for it (and start another
// local AWS in the new class loader); the simulator's URL in every test's configuration changes nothing else.
@WithTestResource(value = PaymentProviderTestResource.class, scope = TestResourceScope.GLOBAL)
class CheckoutHandlerTest {

    @Inject
    CheckoutHandler handler;

    @Inject
    CheckoutConfig config;

    @Inject
    CheckoutReconciliationHandler reconciliation;

    @Inject
    AdjustableClock clock;

    final LocalAws aws = LocalAws.shared();
    final ObjectMapper json = new ObjectMapper();
    DynamoDbCheckoutStore store;
    PaymentProviderSimulator provider;
    String mug;

    @AfterEach
    void clockBack() {
        clock.reset();
    }

    @BeforeEach
    void freshTable() {
        clock.reset();
        String table = config.checkout().ordersTable();
        if (aws.dynamoDb().listTables().tableNames().contains(table)) {
            aws.dynamoDb().deleteTable(b -> b.tableName(table));
        }
        CheckoutTables.createOrdersTable(aws.dynamoDb(), table);
        store = new DynamoDbCheckoutStore(aws.dynamoDb(), table);
        mug = "mug-" + UUID.randomUUID();
        store.stock(mug, 10, 1250, "EUR");
        provider = PaymentProviderTestResource.simulator;
        provider.fault(Fault.FAIL, 0, Duration.ZERO);
    }

    static APIGatewayV2HTTPEvent post(String path, String key, String body) {
        APIGatewayV2HTTPEvent event = new APIGatewayV2HTTPEvent();
        event.setVersion("2.0");
        event.setRouteKey("$default");
        event.setRawPath(path);
        event.setHeaders(
                key == null
                        ? Map.of("content-type", "application/json")
                        : Map.of("content-type", "application/json", "idempotency-key", key));
        APIGatewayV2HTTPEvent.RequestContext context = new APIGatewayV2HTTPEvent.RequestContext();
        APIGatewayV2HTTPEvent.RequestContext.Http http = new APIGatewayV2HTTPEvent.RequestContext.Http();
        http.setMethod("POST");
        http.setPath(path);
        context.setHttp(http);
        event.setRequestContext(context);
        event.setBody(body);
        event.setIsBase64Encoded(false);
        return event;
    }

    String order(int quantity, String token) {
        return "{\"customer\":{\"email\":\"ada@example.com\"},\"items\":[{\"sku\":\"" + mug + "\",\"quantity\":"
                + quantity + "}],\"currency\":\"EUR\",\"paymentToken\":\"" + token + "\"}";
    }

    JsonNode body(APIGatewayV2HTTPResponse r) throws Exception {
        return json.readTree(r.getBody());
    }

    long chargesUnder(String key) {
        return provider.charges().stream().filter(c -> c.key().equals(key)).count();
    }

    @Test
    void anOrderIs201AndItsRetryTheSame201WithNoSecondChargeOrReservation() throws Exception {
        String key = "k-" + UUID.randomUUID();

        APIGatewayV2HTTPResponse first = handler.handleRequest(post("/orders", key, order(2, "tok_visa")), null);
        APIGatewayV2HTTPResponse retry = handler.handleRequest(post("/orders", key, order(2, "tok_visa")), null);

        assertThat(first.getStatusCode()).isEqualTo(201);
        String orderId = CheckoutService.orderIdOf(key);
        assertThat(first.getHeaders())
                .containsEntry("Location", "/orders/" + orderId)
                .doesNotContainKey("Idempotent-Replayed");
        assertThat(body(first).at("/total/amountMinor").asLong()).isEqualTo(2500);
        assertThat(body(first).get("eventId").asText()).isEqualTo(CheckoutService.eventIdOf(orderId));
        assertThat(retry.getStatusCode()).isEqualTo(201);
        assertThat(retry.getHeaders()).containsEntry("Idempotent-Replayed", "true");
        assertThat(retry.getBody()).isEqualTo(first.getBody());
        assertThat(chargesUnder(key)).isEqualTo(1);
        assertThat(store.available(mug)).isEqualTo(8);
        assertThat(store.outbox(orderId))
                .singleElement()
                .satisfies(e -> assertThat(e.sequence()).isEqualTo(1));
    }

    @Test
    void theSameKeyWithAnotherBodyIs422() throws Exception {
        String key = "k-" + UUID.randomUUID();
        handler.handleRequest(post("/orders", key, order(2, "tok_visa")), null);

        APIGatewayV2HTTPResponse other = handler.handleRequest(post("/orders", key, order(3, "tok_visa")), null);

        assertThat(other.getStatusCode()).isEqualTo(422);
        assertThat(body(other).get("error").asText()).isEqualTo("IdempotencyKeyReused");
        assertThat(chargesUnder(key)).isEqualTo(1);
        assertThat(store.available(mug)).isEqualTo(8);
    }

    @Test
    void aDeclineIs402WithNoOrderAndTheStockBack() throws Exception {
        String key = "k-" + UUID.randomUUID();

        APIGatewayV2HTTPResponse declined =
                handler.handleRequest(post("/orders", key, order(4, "tok_decline_funds")), null);

        assertThat(declined.getStatusCode()).isEqualTo(402);
        assertThat(body(declined).get("error").asText()).isEqualTo("PaymentDeclined");
        assertThat(store.order(CheckoutService.orderIdOf(key))).isEmpty();
        assertThat(store.available(mug)).isEqualTo(10);
        assertThat(chargesUnder(key)).isZero();
    }

    @Test
    void outOfStockIs409WithTheSkusAndNoCallToTheProvider() throws Exception {
        String key = "k-" + UUID.randomUUID();
        int calls = provider.calls();

        APIGatewayV2HTTPResponse short_ = handler.handleRequest(post("/orders", key, order(11, "tok_visa")), null);

        assertThat(short_.getStatusCode()).isEqualTo(409);
        assertThat(body(short_).get("error").asText()).isEqualTo("OutOfStock");
        assertThat(body(short_).get("skus").get(0).asText()).isEqualTo(mug);
        assertThat(provider.calls()).isEqualTo(calls);
        assertThat(store.available(mug)).isEqualTo(10);
    }

    @Test
    void aProviderTimeoutIs503WithRetryAfterAndTheRetryWithTheKeyFinishesWithOneCharge() throws Exception {
        String key = "k-" + UUID.randomUUID();
        provider.fault(Fault.HANG_AFTER_AUTHORIZING, 1, Duration.ofSeconds(3));

        APIGatewayV2HTTPResponse timedOut = handler.handleRequest(post("/orders", key, order(1, "tok_visa")), null);
        APIGatewayV2HTTPResponse retried = handler.handleRequest(post("/orders", key, order(1, "tok_visa")), null);

        assertThat(timedOut.getStatusCode()).isEqualTo(503);
        assertThat(timedOut.getHeaders()).containsEntry("Retry-After", "2");
        assertThat(body(timedOut).get("error").asText()).isEqualTo("PaymentProviderUnavailable");
        assertThat(retried.getStatusCode()).isEqualTo(201);
        assertThat(chargesUnder(key))
                .as("the authorization the lost answer made, found again")
                .isEqualTo(1);
        assertThat(store.available(mug)).isEqualTo(9);
    }

    @Test
    void badRequestsAre400WithTheFieldAndTheRuleAndOtherRoutesAre404Or405() throws Exception {
        assertThat(body(handler.handleRequest(post("/orders", null, order(1, "tok_visa")), null))
                        .get("error")
                        .asText())
                .isEqualTo("MissingIdempotencyKey");
        APIGatewayV2HTTPResponse twice =
                handler.handleRequest(post("/orders", "k-1", "{\"currency\":\"EUR\",\"currency\":\"USD\"}"), null);
        assertThat(twice.getStatusCode()).isEqualTo(400);
        assertThat(body(twice).get("error").asText()).isEqualTo("DuplicateKey");
        APIGatewayV2HTTPResponse quantity = handler.handleRequest(post("/orders", "k-2", order(0, "tok_visa")), null);
        assertThat(quantity.getStatusCode()).isEqualTo(400);
        assertThat(body(quantity).get("message").asText())
                .contains("$.items[0]")
                .contains("quantity");
        assertThat(handler.handleRequest(post("/orders", "k-3", "not json"), null)
                        .getStatusCode())
                .isEqualTo(400);
        assertThat(handler.handleRequest(post("/refunds", "k-4", order(1, "tok_visa")), null)
                        .getStatusCode())
                .isEqualTo(404);
        APIGatewayV2HTTPEvent get = post("/orders", "k-5", null);
        get.getRequestContext().getHttp().setMethod("GET");
        assertThat(handler.handleRequest(get, null).getStatusCode()).isEqualTo(405);
        assertThat(store.available(mug)).isEqualTo(10);
    }

    @Test
    void aBase64BodyAsFunctionUrlsSendItIsRead() {
        APIGatewayV2HTTPEvent event = post(
                "/orders",
                "k-" + UUID.randomUUID(),
                Base64.getEncoder().encodeToString(order(1, "tok_visa").getBytes(StandardCharsets.UTF_8)));
        event.setIsBase64Encoded(true);

        assertThat(handler.handleRequest(event, null).getStatusCode()).isEqualTo(201);
    }

    @Test
    void whenTheStoreCannotBeReachedItAnswers503AndThrowsNothing() throws Exception {
        aws.dynamoDb().deleteTable(b -> b.tableName(config.checkout().ordersTable()));

        APIGatewayV2HTTPResponse r =
                handler.handleRequest(post("/orders", "k-" + UUID.randomUUID(), order(1, "tok_visa")), null);

        assertThat(r.getStatusCode()).isEqualTo(503);
        assertThat(r.getHeaders()).containsKey("Retry-After");
        assertThat(body(r).get("error").asText()).isEqualTo("Unavailable");
    }

    @Test
    void aCheckoutWhoseClientNeverRetriedAfterA503IsVoidedAndReleasedByTheReconciliationAndALateRetryIs410()
            throws Exception {
        String key = "k-" + UUID.randomUUID();
        provider.fault(Fault.HANG_AFTER_AUTHORIZING, 1, Duration.ofSeconds(3));
        assertThat(handler.handleRequest(post("/orders", key, order(3, "tok_visa")), null)
                        .getStatusCode())
                .isEqualTo(503);
        assertThat(store.available(mug)).isEqualTo(7);

        Map<String, Object> withinGrace = reconciliation.handleRequest(Map.of(), null);
        clock.jump(config.checkout().reconciliation().grace().plusSeconds(1));
        Map<String, Object> after = reconciliation.handleRequest(Map.of(), null);
        APIGatewayV2HTTPResponse late = handler.handleRequest(post("/orders", key, order(3, "tok_visa")), null);

        assertThat(withinGrace).containsEntry("voided", 0);
        assertThat(after).containsEntry("voided", 1);
        assertThat(provider.charges())
                .filteredOn(c -> c.key().equals(key))
                .singleElement()
                .satisfies(c -> assertThat(c.voided()).isTrue());
        assertThat(store.available(mug)).isEqualTo(10);
        assertThat(late.getStatusCode()).isEqualTo(410);
        assertThat(body(late).get("error").asText()).isEqualTo("Abandoned");
        assertThat(store.order(CheckoutService.orderIdOf(key))).isEmpty();
    }
}
