package dev.redrive.console.bench;

import dev.redrive.console.ConsoleOptions;
import dev.redrive.console.ConsoleServer;
import dev.redrive.console.ConsoleSources;
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
import dev.redrive.testing.sweeper.SweeperFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * How long the console takes to answer with N dead letters in the ledger (100,000 by default) on core's in-memory
 * fakes: the overview, the groups page (every unresolved dead letter grouped), one group's drill-down list and the
 * arrivals matrix, each asked {@code rounds} times after two warm-up rounds, over HTTP on 127.0.0.1. Prints p50/p95
 * (nearest rank) and the page's size; fails on nothing (a benchmark, not a test). The fakes make it a measure of the console's own
 * work (listing, grouping, rendering), not of DynamoDB. Run with
 * {@code ./mvnw -o -q -pl platform/redrive-console exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.redrive.console.bench.ConsoleLoadBenchmark [-Dexec.args="100000 20"]}.
 */
public final class ConsoleLoadBenchmark {

    private static final List<Route> ROUTES =
            List.of(new Route("email", "orders", "orders-dlq"), new Route("payments", "payments", "payments-dlq"));

    private ConsoleLoadBenchmark() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        SweeperFixture fixture = new SweeperFixture();
        long seeding = System.nanoTime();
        seed(fixture, n);
        System.out.printf(Locale.ROOT, "seeded %,d dead letters in %.1f s%n", n, (System.nanoTime() - seeding) / 1e9);
        OperatorPort operator = fixture.operator().build();
        try (ConsoleServer server = ConsoleServer.start(
                ConsoleOptions.loopback(),
                new ConsoleSources(operator, ROUTES, () -> Actor.person("benchmark"), fixture.clock))) {
            HttpClient http = HttpClient.newBuilder()
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .build();
            HttpResponse<Void> opened =
                    http.send(HttpRequest.newBuilder(server.openUri()).build(), HttpResponse.BodyHandlers.discarding());
            String setCookie = opened.headers().firstValue("Set-Cookie").orElseThrow();
            String cookie = setCookie.substring(0, setCookie.indexOf(';'));
            System.out.printf(Locale.ROOT, "%-48s %8s %8s %10s%n", "page", "p50 ms", "p95 ms", "bytes");
            for (String path : List.of(
                    "/",
                    "/groups",
                    "/groups?state=all",
                    "/dead-letters?queue=orders&errorType=Timeout",
                    "/api/arrivals?queue=orders&since=7d")) {
                measure(http, server.origin().resolve(path), cookie, rounds);
            }
        }
    }

    private static void measure(HttpClient http, URI uri, String cookie, int rounds) throws Exception {
        List<Double> ms = new ArrayList<>();
        int bytes = 0;
        for (int i = 0; i < rounds + 2; i++) {
            long t = System.nanoTime();
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(uri).header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
            double elapsed = (System.nanoTime() - t) / 1e6;
            if (r.statusCode() != 200) {
                throw new IllegalStateException(uri + " answered " + r.statusCode());
            }
            bytes = r.body().length();
            if (i >= 2) {
                ms.add(elapsed);
            }
        }
        Collections.sort(ms);
        System.out.printf(
                Locale.ROOT,
                "%-48s %8.1f %8.1f %,10d%n",
                uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()),
                ms.get(Math.max(0, (int) Math.ceil(ms.size() * 0.5) - 1)),
                ms.get(Math.max(0, (int) Math.ceil(ms.size() * 0.95) - 1)),
                bytes);
    }

    /** N dead letters over the two routes, 40 error types, every class, spread over the last week, 20% archived. */
    private static void seed(SweeperFixture fixture, int n) {
        Random random = new Random(42);
        Instant now = SweeperFixture.T0;
        FailureClass[] classes = FailureClass.values();
        for (int i = 0; i < n; i++) {
            Route route = ROUTES.get(i % ROUTES.size());
            int type = random.nextInt(40);
            FailureClass c = classes[type % classes.length];
            Instant arrived = now.minusSeconds(random.nextInt(7 * 86_400));
            QuarantineState state = random.nextInt(5) == 0 ? QuarantineState.ARCHIVED : QuarantineState.QUARANTINED;
            String id = String.format(Locale.ROOT, "q-%08d", i);
            Classification classification =
                    new Classification(c, type == 0 ? "Timeout" : "Error" + type, "reason " + type, null);
            QuarantineRecord r = new QuarantineRecord(
                    id,
                    state,
                    new DeadLetterOrigin(
                            route.consumer(),
                            route.sourceQueue(),
                            route.deadLetterQueue(),
                            "m-" + id,
                            route.consumer() + "#" + id,
                            arrived),
                    new DeadLetterEvidence(classification, arrived.minusSeconds(60), arrived.minusSeconds(5), 3),
                    new PayloadLocation.Inline("{\"orderId\":\"" + id + "\"}"),
                    Map.of("traceparent", MessageAttribute.ofString("00-abc-def-01")),
                    0,
                    "arrived",
                    List.of(new AuditEntry(null, QuarantineState.QUARANTINED, arrived, Actor.AUTOMATION, "arrived")),
                    0);
            fixture.ledger.insertIfAbsent(r, Optional.empty());
        }
    }
}
