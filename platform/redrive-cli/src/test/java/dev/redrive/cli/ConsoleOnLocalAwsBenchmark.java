package dev.redrive.cli;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * How long the console's pages take to load in a browser with N dead letters (10,000 by default) in the DynamoDB ledger
 * on local AWS (moto): the real {@code redrive console} command over the CLI's AWS backend, headless Chromium
 * navigating to each page {@code rounds} times after two warm-up loads. Prints, per page, p50 and p95 of the server's
 * answer (request start to response end) and of the page load (navigation start to the load event, scripts and styles
 * included), from the browser's Navigation Timing. Fails on nothing (a benchmark, not a test). moto serves one request
 * at a time and is no DynamoDB: the figures say what the console's own queries cost against a local endpoint, not what
 * AWS answers in. Run with {@code ./mvnw -o -q -pl platform/redrive-cli exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.redrive.cli.ConsoleOnLocalAwsBenchmark [-Dexec.args="10000 20"]}.
 */
public final class ConsoleOnLocalAwsBenchmark {

    private ConsoleOnLocalAwsBenchmark() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        LocalAws aws = LocalAws.shared();
        CliRig rig = new CliRig(aws, Clock.systemUTC());
        long seeding = System.nanoTime();
        seed(rig, n);
        System.out.printf(
                Locale.ROOT,
                "seeded %,d dead letters into the DynamoDB ledger on moto in %.1f s%n",
                n,
                (System.nanoTime() - seeding) / 1e9);
        try (BrowserConsole console = BrowserConsole.open(rig)) {
            System.out.printf(
                    Locale.ROOT,
                    "%-52s %9s %9s %9s %9s%n",
                    "page (" + rounds + " loads each)",
                    "srv p50",
                    "srv p95",
                    "load p50",
                    "load p95");
            for (String path : List.of(
                    "/",
                    "/groups",
                    "/groups?state=all",
                    "/dead-letters?queue=" + CliRig.QUEUE + "&errorType=Timeout",
                    "/api/arrivals?queue=" + CliRig.QUEUE + "&since=7d")) {
                measure(console, path, rounds);
            }
        }
        System.exit(0);
    }

    private static void measure(BrowserConsole console, String path, int rounds) {
        List<Double> server = new ArrayList<>();
        List<Double> load = new ArrayList<>();
        for (int i = 0; i < rounds + 2; i++) {
            console.go(path);
            @SuppressWarnings("unchecked")
            Map<String, Object> timing = (Map<String, Object>)
                    console.browser.executeScript("const t = performance.getEntriesByType('navigation')[0];"
                            + "return {status: t.responseStatus, server: t.responseEnd - t.requestStart,"
                            + " load: t.loadEventEnd - t.startTime};");
            long status = ((Number) timing.get("status")).longValue();
            if (status != 200) {
                throw new IllegalStateException(path + " answered " + status + ": " + console.text());
            }
            if (i >= 2) {
                server.add(((Number) timing.get("server")).doubleValue());
                load.add(((Number) timing.get("load")).doubleValue());
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%-52s %9.1f %9.1f %9.1f %9.1f%n",
                path,
                percentile(server, 50),
                percentile(server, 95),
                percentile(load, 50),
                percentile(load, 95));
    }

    /** The nearest-rank percentile. */
    static double percentile(List<Double> values, int p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    /** N dead letters of the rig's consumer: 12 error types over every class, spread over the last week. */
    private static void seed(CliRig rig, int n) {
        Random random = new Random(42);
        FailureClass[] classes = FailureClass.values();
        for (int i = 0; i < n; i++) {
            int type = random.nextInt(12);
            FailureClass c = classes[type % classes.length];
            Classification classification = DeadLetters.classification(c, type == 0 ? "Timeout" : "Error" + type);
            rig.deadLetter(
                    String.format(Locale.ROOT, "q-%08d", i),
                    Orders.v2("e-bench-" + i, 100 + i),
                    classification,
                    Duration.ofSeconds(60 + random.nextInt(7 * 86_400)));
        }
    }
}
