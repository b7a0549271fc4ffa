package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.Route;
import dev.redrive.schema.PayloadRedactor;
import dev.redrive.schema.SchemaRegistry;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/**
 * A console on core's in-memory fakes ({@link SweeperFixture}'s ledger, queues, windows and replay statistics behind
 * the real {@code LedgerOperator}), served on 127.0.0.1 and a free port, and an HTTP client that keeps no cookies of
 * its own: each test says which session cookie, Origin and CSRF token a request carries.
 */
final class ConsoleRig implements AutoCloseable {

    static final Instant NOW = SweeperFixture.T0;
    static final Route ORDERS = new Route("email", "orders", "orders-dlq");
    static final Route PAYMENTS = new Route("payments", "payments", "payments-dlq");
    static final Actor OPERATOR = Actor.person("arn:aws:sts::123456789012:assumed-role/Operator/alice");

    final SweeperFixture fixture = new SweeperFixture();
    final OperatorPort operator;
    final ConsoleServer server;
    final HttpClient http = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final AtomicInteger ids = new AtomicInteger();

    /**
     * The event schemas the console redacts by: {@code Signup} v1 marks {@code person.email} and {@code card} sensitive
     * (the seeded payloads have no event type: they are withheld whole).
     */
    static final SchemaRegistry SCHEMAS = SchemaRegistry.of(Map.of(
            "Signup",
            Map.of(
                    1,
                    json("{\"type\":\"object\",\"properties\":{"
                            + "\"person\":{\"type\":\"object\",\"properties\":{"
                            + "\"email\":{\"type\":\"string\",\"x-sensitive\":true},\"plan\":{\"type\":\"string\"}}},"
                            + "\"card\":{\"type\":\"string\",\"x-sensitive\":true}}}"))));

    private static com.fasterxml.jackson.databind.JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    ConsoleRig(ConsoleOptions options) {
        this(options, List.of());
    }

    /** A console whose operator port shares the breakers of {@code breakers} (the fixture's, kept with its windows). */
    ConsoleRig(ConsoleOptions options, List<String> breakers) {
        operator = breakers.isEmpty()
                ? fixture.operator().build()
                : fixture.operator().breakers(fixture.breakers, breakers).build();
        server = ConsoleServer.start(
                options,
                new ConsoleSources(
                        operator,
                        List.of(ORDERS, PAYMENTS),
                        () -> OPERATOR,
                        fixture.clock,
                        new PayloadRedactor(SCHEMAS)));
    }

    /** On 127.0.0.1, a free port, read and write, its state (saved views) in a new temporary directory. */
    ConsoleRig() {
        this(ConsoleOptions.loopback().withStateDir(temporaryStateDir()));
    }

    /**
     * A new directory for a console's state, so no test reads or writes the operator's own: under this module's
     * {@code target/console-state}, which the build's clean removes (in {@code /tmp} they were left behind, 43 a run).
     */
    static java.nio.file.Path temporaryStateDir() {
        try {
            java.nio.file.Path under = java.nio.file.Files.createDirectories(
                    java.nio.file.Path.of("target", "console-state").toAbsolutePath());
            return java.nio.file.Files.createTempDirectory(under, "state-");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Seeds {@code n} dead letters of {@code route} with one failure, arrived {@code ago} before {@link #NOW}. */
    List<String> seed(Route route, int n, FailureClass c, String errorType, QuarantineState state, Duration ago) {
        return seed(route, n, c, errorType, state, ago, "");
    }

    /** {@link #seed}, the dead letters having failed in the consumer's build {@code version} (empty: none recorded). */
    List<String> seed(
            Route route, int n, FailureClass c, String errorType, QuarantineState state, Duration ago, String version) {
        List<String> seeded = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = "q-" + route.sourceQueue() + "-" + ids.incrementAndGet();
            Instant arrived = NOW.minus(ago).plusSeconds(i);
            Classification classification = new Classification(c, errorType, errorType + " from the provider", null);
            QuarantineRecord r = new QuarantineRecord(
                    id,
                    state,
                    new DeadLetterOrigin(
                            route.consumer(),
                            route.sourceQueue(),
                            route.deadLetterQueue(),
                            "m-" + id,
                            route.consumer() + "#k-" + id,
                            arrived),
                    new DeadLetterEvidence(
                            classification, arrived.minusSeconds(90), arrived.minusSeconds(30), 3, version),
                    new PayloadLocation.Inline("{\"email\":\"alice@example.com\",\"card\":\"4111111111111111\"}"),
                    Map.of("traceparent", MessageAttribute.ofString("00-abc-def-01")),
                    0,
                    "arrived",
                    List.of(new AuditEntry(null, QuarantineState.QUARANTINED, arrived, Actor.AUTOMATION, "arrived")),
                    0);
            assertThat(fixture.ledger.insertIfAbsent(r, Optional.empty())).isTrue();
            seeded.add(id);
        }
        return seeded;
    }

    URI uri(String pathAndQuery) {
        return server.origin().resolve(pathAndQuery);
    }

    /** Opens the one-time URL; returns the session cookie ({@code name=value}). */
    String openSession() {
        HttpResponse<String> r = send(HttpRequest.newBuilder(server.openUri()).GET());
        assertThat(r.statusCode()).as("the one-time URL opens a session").isEqualTo(303);
        String setCookie = r.headers().firstValue("Set-Cookie").orElseThrow();
        return setCookie.substring(0, setCookie.indexOf(';'));
    }

    HttpResponse<String> get(String path, String cookie) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).GET();
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return send(b);
    }

    /** A page the session can read, parsed. */
    Document page(String path, String cookie) {
        HttpResponse<String> r = get(path, cookie);
        assertThat(r.statusCode()).as("GET " + path).isEqualTo(200);
        return Jsoup.parse(r.body(), uri(path).toString());
    }

    /** The session's CSRF token, as every page carries it (its forms, and a meta element for scripts). */
    String csrf(String cookie) {
        return page("/", cookie).selectFirst("meta[name=csrf-token]").attr("content");
    }

    /** A form post with the given headers (name, value, name, value...). */
    HttpResponse<String> post(String path, String form, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b);
    }

    String origin() {
        return server.origin().toString();
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
