package dev.redrive.checkout.placing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;

/**
 * The payment provider over HTTP, the way payment APIs take an idempotency key:
 * <ul>
 *   <li>{@code POST <base>/authorizations} with header {@code Idempotency-Key} and
 *       {@code {"orderId","paymentToken","amountMinor","currency"}}: 201 or 200 {@code {"authorizationId"}} is
 *       authorized, 402 {@code {"reason"}} declined, 422 the key reused with another request (a checkout bug: thrown),
 *       anything else, a timeout or a refused connection unavailable;</li>
 *   <li>{@code POST <base>/authorizations/void} with the same header: 200 voided (now or before), 404 no
 *       authorization under the key (nothing to void); anything else, a timeout or a refused connection failed.</li>
 * </ul>
 * One attempt per call, bounded by the timeout given (the checkout's deadline): the client's retry with its key is the
 * only retry layer. The payment token is sent, never logged.
 */
public final class HttpPaymentProvider implements PaymentProvider {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http;

    /** Calls the provider at {@code base}, connecting within {@code connectTimeout}. */
    public HttpPaymentProvider(URI base, Duration connectTimeout) {
        this.base = Objects.requireNonNull(base, "base");
        this.http = HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public Outcome authorize(Authorization request, Duration timeout) {
        ObjectNode body = JSON.createObjectNode();
        body.put("orderId", request.orderId());
        body.put("paymentToken", request.paymentToken());
        body.put("amountMinor", request.amountMinor());
        body.put("currency", request.currency());
        HttpResponse<String> response;
        try {
            response = http.send(
                    post("/authorizations", request.idempotencyKey(), body.toString(), timeout),
                    HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            return new Unavailable("the payment provider did not answer within " + timeout);
        } catch (IOException e) {
            return new Unavailable(
                    "the payment provider could not be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Unavailable("interrupted while waiting for the payment provider");
        }
        int status = response.statusCode();
        if (status == 200 || status == 201) {
            String id = field(response.body(), "authorizationId");
            return id == null
                    ? new Unavailable("the payment provider answered " + status + " without an id")
                    : new Authorized(id);
        }
        if (status == 402) {
            String reason = field(response.body(), "reason");
            return new Declined(reason == null ? "declined" : reason);
        }
        if (status == 422) {
            throw new IllegalStateException("the payment provider refused idempotency key reuse for order "
                    + request.orderId() + ": the checkout sent another request under the same key");
        }
        return new Unavailable("the payment provider answered " + status);
    }

    @Override
    public VoidOutcome voidAuthorization(String idempotencyKey, Duration timeout) {
        int status;
        try {
            status = http.send(
                            post("/authorizations/void", idempotencyKey, "{}", timeout),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (HttpTimeoutException e) {
            return new VoidFailed("the payment provider did not answer the void within " + timeout);
        } catch (IOException e) {
            return new VoidFailed(
                    "the payment provider could not be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new VoidFailed("interrupted while waiting for the payment provider");
        }
        return switch (status) {
            case 200 -> new Voided();
            case 404 -> new NeverAuthorized();
            default -> new VoidFailed("the payment provider answered the void " + status);
        };
    }

    private HttpRequest post(String path, String idempotencyKey, String body, Duration timeout) {
        return HttpRequest.newBuilder(base.resolve(base.getPath().endsWith("/") ? path.substring(1) : path))
                .timeout(timeout)
                .header("Idempotency-Key", idempotencyKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static String field(String body, String name) {
        try {
            JsonNode node = JSON.readTree(body);
            return node != null && node.path(name).isTextual() ? node.get(name).asText() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
