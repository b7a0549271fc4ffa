package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.core.sweeper.Route;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * A console for bulk runs on core's in-memory fakes: the real {@code LedgerOperator} and {@code ReplayService} of a
 * {@link SweeperFixture} (consumer {@code scripted}, whose payloads are {@code key|payload}; a {@code v0:} payload is
 * an incompatible schema), its replay sender wrapped to count every send per payload (and, in a test, to block or fail
 * at the Nth), journaling its runs in a test's temporary state directory. The console can be closed and started again
 * over the same fakes and directory, as a process that goes away and comes back.
 */
final class BulkRig implements AutoCloseable {

    static final Route ROUTE = SweeperFixture.ROUTE;
    static final Actor OPERATOR = Actor.person("arn:aws:sts::123456789012:assumed-role/Operator/alice");

    final SweeperFixture fixture = new SweeperFixture();
    /** Every send that reached the fixture's sender, counted per payload. */
    final Map<String, AtomicInteger> sends = new ConcurrentHashMap<>();

    final OperatorPort operator;
    private final ConsoleOptions options;
    ConsoleServer server;
    String cookie;
    private final HttpClient http = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final ObjectMapper json = new ObjectMapper();
    private int seeded;

    /** @param wrap wraps the counting sender (a test's block or failure at the Nth send) */
    BulkRig(ConsoleOptions options, UnaryOperator<ReplaySender> wrap) {
        ReplaySender counting = (queue, body, attributes) -> {
            String id = fixture.sender.send(queue, body, attributes);
            sends.computeIfAbsent(body, b -> new AtomicInteger()).incrementAndGet();
            return id;
        };
        operator = fixture.operator()
                .replays(fixture.replayService().sender(wrap.apply(counting)).build())
                .build();
        this.options = options;
        start();
    }

    BulkRig(Path stateDir) {
        this(ConsoleOptions.loopback().withStateDir(stateDir), UnaryOperator.identity());
    }

    /** Starts a console (again) over the same fakes and state directory, and opens a session. */
    void start() {
        server = ConsoleServer.start(
                options, new ConsoleSources(operator, List.of(ROUTE), () -> OPERATOR, fixture.clock));
        HttpResponse<String> r = send(HttpRequest.newBuilder(server.openUri()).GET());
        assertThat(r.statusCode()).isEqualTo(303);
        String setCookie = r.headers().firstValue("Set-Cookie").orElseThrow();
        cookie = setCookie.substring(0, setCookie.indexOf(';'));
    }

    /**
     * Puts {@code n} dead letters of consumer {@code scripted} in the ledger, failed as {@code c} with
     * {@code errorType} (the reason "{@code errorType} from the provider"); payload {@code prefix + key|x}.
     */
    List<String> seed(int n, FailureClass c, String errorType, String payloadPrefix) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = ++seeded;
            String id = String.format("q-bulk-%03d", k);
            String key = "k" + k;
            Instant arrived = SweeperFixture.T0.minus(Duration.ofHours(2)).plusSeconds(k);
            QuarantineRecord r = new QuarantineRecord(
                    id,
                    QuarantineState.QUARANTINED,
                    new DeadLetterOrigin(
                            ROUTE.consumer(),
                            ROUTE.sourceQueue(),
                            ROUTE.deadLetterQueue(),
                            "m-" + id,
                            ROUTE.consumer() + "#" + key,
                            arrived),
                    new DeadLetterEvidence(
                            new Classification(c, errorType, errorType + " from the provider", null),
                            arrived.minusSeconds(90),
                            arrived.minusSeconds(30),
                            3),
                    new PayloadLocation.Inline(payloadPrefix + key + "|x"),
                    Map.of("trace", MessageAttribute.ofString("t")),
                    0,
                    "arrived",
                    List.of(new AuditEntry(null, QuarantineState.QUARANTINED, arrived, Actor.AUTOMATION, "arrived")),
                    0);
            assertThat(fixture.ledger.insertIfAbsent(r, Optional.empty())).isTrue();
            ids.add(id);
        }
        return ids;
    }

    QuarantineRecord record(String id) {
        return operator.show(id).orElseThrow();
    }

    /** How many sends each payload had; only payloads sent at least once. */
    Map<String, Integer> sendCounts() {
        return sends.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get()));
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET().header("Cookie", cookie));
    }

    Document page(String path) {
        HttpResponse<String> r = get(path);
        assertThat(r.statusCode()).as("GET " + path + ": " + r.body()).isEqualTo(200);
        return Jsoup.parse(r.body(), uri(path).toString());
    }

    JsonNode progress(String runId) {
        HttpResponse<String> r = get("/api/bulk/runs/" + runId);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        try {
            return json.readTree(r.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A same-origin form post with the session's CSRF token, as the console's own forms post. */
    HttpResponse<String> post(String path, List<Map.Entry<String, String>> fields) {
        List<Map.Entry<String, String>> all = new ArrayList<>(fields);
        all.add(Map.entry("_csrf", csrf()));
        String form = all.stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", cookie)
                .header("Origin", server.origin().toString())
                .POST(HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8)));
    }

    /**
     * Submits {@code form} as a browser would: its inputs (checkboxes only when ticked) plus the submit button named
     * {@code button=value} (or a field typed in: {@code button} names an input), and {@code extra} fields (replacing
     * inputs of the same names).
     */
    HttpResponse<String> submit(Element form, String button, String value, Map<String, String> extra) {
        List<Map.Entry<String, String>> fields = new ArrayList<>();
        List<Element> inputs = new ArrayList<>(form.select("input[name]"));
        if (!form.id().isEmpty()) {
            inputs.addAll(form.ownerDocument().select("input[name][form=" + form.id() + "]"));
        }
        for (Element input : inputs) {
            if (input.attr("name").equals("_csrf")
                    || input.attr("name").equals(button)
                    || extra.containsKey(input.attr("name"))
                    || (input.attr("type").equals("checkbox") && !input.hasAttr("checked"))) {
                continue;
            }
            fields.add(Map.entry(input.attr("name"), input.attr("value")));
        }
        fields.add(Map.entry(button, value));
        extra.forEach((k, v) -> fields.add(Map.entry(k, v)));
        return post(form.attr("action"), fields);
    }

    /** The run id a dry-run post redirected to. */
    static String runId(HttpResponse<String> dryRun) {
        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(303);
        String location = dryRun.headers().firstValue("Location").orElseThrow();
        assertThat(location).startsWith("/bulk/runs/");
        return location.substring("/bulk/runs/".length());
    }

    String csrf() {
        return page("/groups").selectFirst("meta[name=csrf-token]").attr("content");
    }

    URI uri(String path) {
        return server.origin().resolve(path);
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
