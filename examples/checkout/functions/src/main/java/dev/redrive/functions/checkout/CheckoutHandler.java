package dev.redrive.functions.checkout;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.checkout.placing.CheckoutOutcome;
import dev.redrive.checkout.placing.CheckoutRequest;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.PlacedOrder;
import dev.redrive.core.names.RedriveNames.Metrics;
import dev.redrive.lambda.EmfOutput;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jboss.logging.Logger;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * Lambda handler {@value Handlers#CHECKOUT}: {@code POST /orders} behind a Function URL (API Gateway v2 events). It
 * reads the request strictly, places the order through {@link CheckoutService} by the invocation's deadline, and
 * answers:
 * <ul>
 *   <li>201 with the order ({@code Location}; {@code Idempotent-Replayed: true} on a retry's same answer);</li>
 *   <li>400 a bad request (the field and the rule), 404/405 another route;</li>
 *   <li>402 declined, 409 out of stock or in progress ({@code Retry-After}), 410 abandoned, 422 the key reused with
 *       another body;</li>
 *   <li>503 with {@code Retry-After}: the provider or the store did not answer; a retry with the same key finishes.</li>
 * </ul>
 * Never throws: a failure of its own is a 503 the client retries with its key, logged with its type only (the body
 * holds an email address and a payment token).
 */
@Named(CheckoutNames.CHECKOUT)
@Singleton
public class CheckoutHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    private static final Logger LOG = Logger.getLogger("dev.redrive.checkout");
    private static final Duration UNKNOWN_REMAINING = Duration.ofSeconds(30);
    /** Kept for the answer after the provider's timeout: the transaction and the response. */
    private static final Duration DEADLINE_MARGIN = Duration.ofSeconds(2);

    private final CheckoutService checkout;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();
    private final EmfOutput emf;

    @Inject
    public CheckoutHandler(CheckoutService checkout, Clock clock) {
        this(checkout, clock, EmfOutput.stdout());
    }

    CheckoutHandler(CheckoutService checkout, Clock clock, EmfOutput emf) {
        this.checkout = checkout;
        this.clock = clock;
        this.emf = emf;
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try {
            return place(event, context);
        } catch (RuntimeException e) {
            LOG.errorf(
                    "checkout failed (%s); answered 503, the client retries with its key",
                    e.getClass().getName());
            return error(
                    503,
                    "Unavailable",
                    "the checkout could not finish now; retry with the same Idempotency-Key",
                    Duration.ofSeconds(2));
        }
    }

    private APIGatewayV2HTTPResponse place(APIGatewayV2HTTPEvent event, Context context) {
        String method =
                event.getRequestContext() == null || event.getRequestContext().getHttp() == null
                        ? null
                        : event.getRequestContext().getHttp().getMethod();
        String path = event.getRawPath();
        if (!"/orders".equals(path)) {
            return error(404, "NotFound", "the checkout serves POST /orders", null);
        }
        if (!"POST".equals(method)) {
            return error(405, "MethodNotAllowed", "the checkout serves POST /orders", null);
        }
        String key;
        CheckoutRequest request;
        try {
            key = CheckoutRequest.idempotencyKey(header(event, "idempotency-key"));
            request = CheckoutRequest.parse(body(event));
        } catch (CheckoutRequest.BadCheckoutRequest bad) {
            return error(400, bad.code(), bad.getMessage(), null);
        }
        Instant now = clock.instant();
        Duration remaining = context == null || context.getRemainingTimeInMillis() <= 0
                ? UNKNOWN_REMAINING
                : Duration.ofMillis(context.getRemainingTimeInMillis());
        Instant deadline = now.plus(remaining).minus(DEADLINE_MARGIN);
        CheckoutOutcome outcome = checkout.place(key, request, now, deadline.isAfter(now) ? deadline : now);
        count(outcome);
        return answer(outcome);
    }

    /** {@code OrdersPlaced} and {@code PaymentProviderUnavailable}, as EMF, when the answer is one of them. */
    private void count(CheckoutOutcome outcome) {
        String metric = outcome instanceof CheckoutOutcome.Placed p && !p.replayed()
                ? CheckoutNames.Metrics.ORDERS_PLACED
                : outcome instanceof CheckoutOutcome.ProviderUnavailable
                        ? CheckoutNames.Metrics.PAYMENT_PROVIDER_UNAVAILABLE
                        : null;
        if (metric != null) {
            MetricsLogger m = new MetricsLogger(emf);
            m.setNamespace(Metrics.NAMESPACE);
            m.setDimensions(new DimensionSet());
            m.putMetric(metric, 1, Unit.COUNT);
            m.flush();
        }
    }

    private APIGatewayV2HTTPResponse answer(CheckoutOutcome outcome) {
        if (outcome instanceof CheckoutOutcome.Placed placed) {
            Map<String, String> headers = headers();
            headers.put("Location", "/orders/" + placed.order().orderId());
            if (placed.replayed()) {
                headers.put("Idempotent-Replayed", "true");
            }
            return response(201, headers, order(placed.order()).toString());
        }
        if (outcome instanceof CheckoutOutcome.KeyReused) {
            return error(
                    422,
                    "IdempotencyKeyReused",
                    "this Idempotency-Key was first sent with another request body; a new order takes a new key",
                    null);
        }
        if (outcome instanceof CheckoutOutcome.Declined d) {
            return error(
                    402, "PaymentDeclined", "the payment was declined (" + d.reason() + "); no order was placed", null);
        }
        if (outcome instanceof CheckoutOutcome.OutOfStock o) {
            ObjectNode body = errorBody("OutOfStock", "not enough stock; nothing was charged");
            ArrayNode skus = body.putArray("skus");
            o.skus().forEach(skus::add);
            return response(409, headers(), body.toString());
        }
        if (outcome instanceof CheckoutOutcome.InProgress p) {
            return error(
                    409, "InProgress", "this checkout is running in another request; retry after it", p.retryAfter());
        }
        if (outcome instanceof CheckoutOutcome.ProviderUnavailable u) {
            return error(
                    503,
                    "PaymentProviderUnavailable",
                    "the payment provider did not answer; retry with the same Idempotency-Key to finish the order",
                    u.retryAfter());
        }
        return error(
                410,
                "Abandoned",
                "this checkout was abandoned and its authorization voided; a new order takes a new key",
                null);
    }

    private ObjectNode order(PlacedOrder o) {
        ObjectNode n = json.createObjectNode();
        n.put("orderId", o.orderId());
        n.put("status", "PLACED");
        n.put("eventId", o.eventId());
        ArrayNode items = n.putArray("items");
        o.lines()
                .forEach(l -> items.addObject()
                        .put("sku", l.sku())
                        .put("quantity", l.quantity())
                        .put("unitPriceMinor", l.unitPriceMinor()));
        n.putObject("total").put("amountMinor", o.amountMinor()).put("currency", o.currency());
        n.put("placedAt", o.placedAt().toString());
        return n;
    }

    private APIGatewayV2HTTPResponse error(int status, String code, String message, Duration retryAfter) {
        Map<String, String> headers = headers();
        if (retryAfter != null) {
            headers.put("Retry-After", Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000)));
        }
        return response(status, headers, errorBody(code, message).toString());
    }

    private ObjectNode errorBody(String code, String message) {
        ObjectNode n = json.createObjectNode();
        n.put("error", code);
        n.put("message", message);
        return n;
    }

    private static Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json");
        return h;
    }

    private static APIGatewayV2HTTPResponse response(int status, Map<String, String> headers, String body) {
        APIGatewayV2HTTPResponse r = new APIGatewayV2HTTPResponse();
        r.setStatusCode(status);
        r.setHeaders(headers);
        r.setBody(body);
        r.setIsBase64Encoded(false);
        return r;
    }

    /** A header, by name in any case (Function URLs send them lower-cased). */
    private static String header(APIGatewayV2HTTPEvent event, String name) {
        if (event.getHeaders() == null) {
            return null;
        }
        for (Map.Entry<String, String> h : event.getHeaders().entrySet()) {
            if (h.getKey() != null && h.getKey().toLowerCase(Locale.ROOT).equals(name)) {
                return h.getValue();
            }
        }
        return null;
    }

    private static String body(APIGatewayV2HTTPEvent event) {
        String body = event.getBody();
        if (body == null) {
            return "";
        }
        if (event.getIsBase64Encoded()) {
            try {
                return new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new CheckoutRequest.BadCheckoutRequest(
                        "NotBase64", "the request body is marked base64 but is not");
            }
        }
        return body;
    }
}
