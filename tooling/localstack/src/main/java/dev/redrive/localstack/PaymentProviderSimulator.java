package dev.redrive.localstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.redrive.testing.localaws.LocalAwsException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A payment provider for local runs and tests, on 127.0.0.1 and a free port: it keeps charges and honours
 * {@code Idempotency-Key} as payment APIs do (the same key and body: the same authorization, 200; the same key and
 * another body: 422; a void of a key never authorized: 404), and can decline (a token starting {@code tok_decline}), fail (503) and hang on command. The wire
 * format is the one {@code HttpPaymentProvider} speaks. Thread-safe.
 */
public final class PaymentProviderSimulator implements AutoCloseable {

    /** What the next calls do instead of answering at once. */
    public enum Fault {
        /** Answer 503 without authorizing. */
        FAIL,
        /** Authorize, then hold the answer for the hang time (the caller's timeout fires first). */
        HANG_AFTER_AUTHORIZING,
        /** Hold the answer for the hang time, then refuse with 503 without authorizing. */
        HANG_BEFORE_AUTHORIZING
    }

    /**
     * Decides, per authorization call, a fault the call meets besides the scripted ones ({@link #fault}): by the call's
     * idempotency key, so a seeded run decides the same calls. None by default.
     */
    public interface FaultPolicy {
        Optional<Fault> faultFor(String key);
    }

    /** A charge it keeps. */
    public record Charge(
            String key, String authorizationId, String orderId, long amountMinor, String currency, boolean voided) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "payment-provider-simulator");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Charge> charges = new LinkedHashMap<>();
    private final Map<String, String> bodies = new LinkedHashMap<>();
    private final AtomicInteger calls = new AtomicInteger();
    private Fault fault;
    private int faultsLeft;
    private Duration hang = Duration.ofSeconds(30);
    private FaultPolicy policy = key -> Optional.empty();

    private PaymentProviderSimulator(HttpServer server) {
        this.server = server;
        server.createContext("/authorizations", this::handle);
        server.setExecutor(pool);
        server.start();
    }

    /** Starts one on 127.0.0.1 and a free port. */
    public static PaymentProviderSimulator start() {
        try {
            return new PaymentProviderSimulator(
                    HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
        } catch (IOException e) {
            throw new LocalAwsException("the payment provider simulator could not start", e);
        }
    }

    /** Where it listens. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    /** The next {@code calls} authorizations meet {@code fault}; a hang lasts {@code hang}. */
    public synchronized void fault(Fault fault, int calls, Duration hang) {
        this.fault = fault;
        this.faultsLeft = calls;
        this.hang = hang;
    }

    /**
     * Every authorization call from now on meets the fault {@code policy} chooses for it (after any scripted ones),
     * and a hang lasts {@code hang}.
     */
    public synchronized void faultPolicy(FaultPolicy policy, Duration hang) {
        this.policy = policy;
        this.hang = hang;
    }

    /** Every charge it keeps, in the order authorized. */
    public synchronized List<Charge> charges() {
        return new ArrayList<>(charges.values());
    }

    /** Authorization calls received. */
    public int calls() {
        return calls.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                answer(exchange, 405, "{\"error\":\"method\"}");
                return;
            }
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            if (key == null || key.isEmpty()) {
                answer(exchange, 400, "{\"error\":\"Idempotency-Key required\"}");
                return;
            }
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (exchange.getRequestURI().getPath().endsWith("/void")) {
                if (voidCharge(key)) {
                    answer(exchange, 200, "{}");
                } else {
                    // as payment APIs answer a void of an unknown authorization (Stripe: 404 resource_missing)
                    answer(exchange, 404, "{\"error\":\"no_such_authorization\"}");
                }
                return;
            }
            calls.incrementAndGet();
            authorize(exchange, key, body);
        }
    }

    private void authorize(HttpExchange exchange, String key, String body) throws IOException {
        JsonNode request = JSON.readTree(body);
        Fault now;
        Duration holdFor;
        Charge charge = null;
        synchronized (this) {
            String first = bodies.get(key);
            if (first != null && !first.equals(body)) {
                answer(exchange, 422, "{\"error\":\"idempotency key reused with another request\"}");
                return;
            }
            now = faultsLeft > 0 ? fault : null;
            if (now != null) {
                faultsLeft--;
            } else {
                now = policy.faultFor(key).orElse(null);
            }
            holdFor = hang;
            if (now == Fault.FAIL || now == Fault.HANG_BEFORE_AUTHORIZING) {
                charge = null;
            } else if (request.path("paymentToken").asText().startsWith("tok_decline")) {
                bodies.put(key, body);
            } else {
                bodies.put(key, body);
                charge = charges.computeIfAbsent(
                        key,
                        k -> new Charge(
                                k,
                                "auth-" + (charges.size() + 1),
                                request.path("orderId").asText(),
                                request.path("amountMinor").asLong(),
                                request.path("currency").asText(),
                                false));
            }
        }
        if (now == Fault.HANG_AFTER_AUTHORIZING || now == Fault.HANG_BEFORE_AUTHORIZING) {
            try {
                Thread.sleep(holdFor.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (now == Fault.FAIL || now == Fault.HANG_BEFORE_AUTHORIZING) {
            answer(exchange, 503, "{\"error\":\"unavailable\"}");
            return;
        }
        if (charge == null) {
            answer(exchange, 402, "{\"reason\":\"card_declined\"}");
            return;
        }
        ObjectNode ok = JSON.createObjectNode().put("authorizationId", charge.authorizationId());
        answer(exchange, 200, ok.toString());
    }

    /** Voids the charge under {@code key}; false when nothing was ever authorized under it. */
    private synchronized boolean voidCharge(String key) {
        Charge c = charges.get(key);
        if (c == null) {
            return false;
        }
        charges.put(key, new Charge(c.key(), c.authorizationId(), c.orderId(), c.amountMinor(), c.currency(), true));
        return true;
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        try {
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (IOException callerGone) {
            // the caller timed out and closed: nothing to answer
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
