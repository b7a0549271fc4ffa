package com.example.quickstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureClassifier;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The webhook call against a real HTTP server on a loopback port chosen at start: what it sends, and how Redrive's
 * classifier (the one every consumer uses unless it declares its own) reads each way it fails.
 */
class ReceiptsWebhookTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final FailureClassifier CLASSIFIER = FailureClassifier.defaults();

    private record Received(String method, String idempotencyKey, String contentType, String body) {}

    private final AtomicInteger status = new AtomicInteger(200);
    private final AtomicReference<Received> received = new AtomicReference<>();
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean hang;
    private ExecutorService threads;
    private HttpServer server;
    private ReceiptsWebhook webhook;

    @BeforeEach
    void startWebhook() throws IOException {
        threads = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/receipts", exchange -> {
            try (exchange) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                received.set(new Received(
                        exchange.getRequestMethod(),
                        exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                        exchange.getRequestHeaders().getFirst("Content-Type"),
                        body));
                if (hang) {
                    released.await();
                }
                exchange.sendResponseHeaders(status.get(), -1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.setExecutor(threads);
        server.start();
        webhook = new ReceiptsWebhook("http://127.0.0.1:" + server.getAddress().getPort() + "/receipts");
    }

    @AfterEach
    void stopWebhook() {
        released.countDown();
        server.stop(0);
        threads.shutdownNow();
    }

    @Test
    void postsTheOrderWithTheClaimKeyAsItsIdempotencyKey() throws Exception {
        status.set(201);
        JsonNode order = order();

        String summary = webhook.post(order, context(Duration.ofSeconds(10)));

        assertEquals("HTTP 201", summary);
        Received request = received.get();
        assertEquals("POST", request.method());
        assertEquals("receipts#order-1", request.idempotencyKey());
        assertEquals("application/json", request.contentType());
        assertEquals(order, JSON.readTree(request.body()));
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 429, 500, 502, 503, 504})
    void anAnswerThatMayPassIsTransient(int answer) {
        status.set(answer);

        Classification c = classify(() -> webhook.post(order(), context(Duration.ofSeconds(10))));

        assertEquals(FailureClass.TRANSIENT, c.failureClass());
        assertEquals("receipts-webhook", c.dependency());
        assertEquals("the receipts webhook answered HTTP " + answer, c.reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {301, 400, 401, 403, 404, 409, 422})
    void anyOtherAnswerIsPermanent(int answer) {
        status.set(answer);

        Classification c = classify(() -> webhook.post(order(), context(Duration.ofSeconds(10))));

        assertEquals(FailureClass.PERMANENT, c.failureClass());
        assertEquals("HTTP" + answer, c.errorType());
    }

    @Test
    void aWebhookSlowerThanTheDeadlineTimesOutTransiently() {
        hang = true;

        Exception thrown =
                assertThrows(HttpTimeoutException.class, () -> webhook.post(order(), context(Duration.ofMillis(300))));

        assertEquals(FailureClass.TRANSIENT, CLASSIFIER.classify(thrown).failureClass());
    }

    @Test
    void nothingIsSentOnceTheDeadlineHasPassed() {
        Classification c = classify(() -> webhook.post(order(), context(Duration.ofSeconds(-1))));

        assertEquals(FailureClass.TRANSIENT, c.failureClass());
        assertEquals("EffectDeadlinePassed", c.errorType());
        assertNull(received.get());
    }

    private interface Call {
        void run() throws Exception;
    }

    private static Classification classify(Call call) {
        return CLASSIFIER.classify(assertThrows(Exception.class, call::run));
    }

    private static JsonNode order() {
        return JSON.createObjectNode()
                .put("orderId", "order-1")
                .put("customer", "c-1")
                .put("amountCents", 1250);
    }

    private static EffectContext context(Duration timeLeft) {
        Clock clock = Clock.systemUTC();
        Instant deadline = clock.instant().plus(timeLeft);
        return new EffectContext(new IdempotencyKey("receipts", "order-1"), 1, 1, "message-1", deadline, clock);
    }
}
