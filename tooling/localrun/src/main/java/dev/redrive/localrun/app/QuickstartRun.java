package dev.redrive.localrun.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.testing.localaws.EndpointOverrides;
import dev.redrive.testing.localaws.LocalAws;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.jar.JarFile;

/**
 * The quickstart's dead-letter workflow on local AWS, from its synthesized template: its two consumers run its own jar,
 * the sweeper runs redrive-sweeper's jar and {@code redrive replay} the CLI's, so neither has the quickstart's code on
 * its class path. A stub webhook on 127.0.0.1 answers the Receipts consumer as a script says:
 *
 * <ol>
 *   <li>{@code o-1} is applied once;</li>
 *   <li>{@code o-dup}'s first copy is refused (400, PERMANENT: dead-lettered at once), its second copy applied;</li>
 *   <li>{@code o-late} is refused (400) until the webhook is fixed;</li>
 *   <li>{@code o-outage} meets an outage (503, TRANSIENT) until its receives run out;</li>
 *   <li>Revenue gets {@code o-bad}, whose {@code amountCents} is text: a SCHEMA dead letter.</li>
 * </ol>
 *
 * Then the webhook is fixed and a maintenance window for {@code receipts-webhook} approved: the sweeper quarantines
 * the four dead letters and replays {@code o-outage} (the window explains it); {@code redrive replay} replays the rest:
 * {@code o-late} is sent and applied once, {@code o-dup} is marked already applied and nothing is sent, {@code o-bad}
 * is refused by its declared schema and archived with the reason. Every check is counted; the exit status is the
 * number that failed.
 *
 * <pre>
 *   java -cp tooling/localrun/target/redrive-local-run.jar dev.redrive.localrun.app.QuickstartRun \
 *        examples/quickstart/infra/target/cdk.out/RedriveQuickstart.template.json platform/redrive-cli/target/redrive-cli.jar
 * </pre>
 */
public final class QuickstartRun {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(120);

    private final Map<String, AtomicInteger> applied = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Set<String> refused = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean outage = new AtomicBoolean();
    private final List<String> failures = new ArrayList<>();
    private final Map<String, Object> report = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: QuickstartRun <RedriveQuickstart.template.json> <redrive-cli.jar>");
            System.exit(2);
        }
        System.exit(new QuickstartRun().run(Path.of(args[0]), Path.of(args[1])));
    }

    /** Runs the workflow; the number of checks that failed. */
    int run(Path template, Path cliJar) throws Exception {
        HttpServer webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        webhook.createContext("/receipts", exchange -> {
            String order = orderId(exchange.getRequestBody());
            calls.computeIfAbsent(order, o -> new AtomicInteger()).incrementAndGet();
            int status = outage.get() && order.equals("o-outage")
                    ? 503
                    : refused.remove(order) || stillRefused(order) ? 400 : 200;
            if (status == 200) {
                applied.computeIfAbsent(order, o -> new AtomicInteger()).incrementAndGet();
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        webhook.start();
        Path work = Files.createTempDirectory("redrive-quickstart-run-");
        try (LocalAws aws = LocalAws.start(EndpointOverrides.fromEnvironment())) {
            Map<String, Map<String, String>> overrides = Map.of(
                    "TeamReceipts",
                    Map.of(
                            "RECEIPTS_WEBHOOK_URL",
                            "http://127.0.0.1:" + webhook.getAddress().getPort() + "/receipts",
                            // a local run's minutes: the outage's ten receives take seconds, not a quarter hour
                            "REDRIVE_BACKOFF_BASE",
                            "100ms",
                            "REDRIVE_BACKOFF_MAX_DELAY",
                            "200ms"));
            try (TemplateApp app = TemplateApp.start(template, aws, work, overrides)) {
                workflow(app, cliJar);
            }
        } finally {
            webhook.stop(0);
        }
        System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        System.out.println(
                failures.isEmpty()
                        ? "quickstart run: every check passed"
                        : "quickstart run: " + failures.size() + " checks FAILED: " + failures);
        if (failures.isEmpty()) {
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            }
        } else {
            System.out.println("quickstart run: sandbox logs in " + work);
        }
        return failures.size();
    }

    private final Set<String> refuseUntilFixed = ConcurrentHashMap.newKeySet();

    private boolean stillRefused(String order) {
        return refuseUntilFixed.contains(order);
    }

    private void workflow(TemplateApp app, Path cliJar) throws Exception {
        LocalAws aws = app.aws();
        String receipts = queue(app, "quickstart-receipts");
        String revenue = queue(app, "quickstart-revenue");
        String receiptsDlq = queue(app, "quickstart-receipts-dlq");
        String revenueDlq = queue(app, "quickstart-revenue-dlq");

        send(aws, receipts, "{\"orderId\":\"o-1\",\"customer\":\"c-1\",\"amountCents\":1200}");
        await("o-1 applied", () -> count(applied, "o-1") == 1);

        refused.add("o-dup"); // its first copy only
        send(aws, receipts, "{\"orderId\":\"o-dup\",\"customer\":\"c-2\",\"amountCents\":500}");
        await("o-dup's first copy dead-lettered", () -> depth(aws, receiptsDlq) == 1);
        send(aws, receipts, "{\"orderId\":\"o-dup\",\"customer\":\"c-2\",\"amountCents\":500}");
        await("o-dup's second copy applied", () -> count(applied, "o-dup") == 1);

        refuseUntilFixed.add("o-late");
        send(aws, receipts, "{\"orderId\":\"o-late\",\"customer\":\"c-3\",\"amountCents\":700}");
        await("o-late dead-lettered", () -> depth(aws, receiptsDlq) == 2);

        outage.set(true);
        Instant outageStarted = Instant.now();
        send(aws, receipts, "{\"orderId\":\"o-outage\",\"customer\":\"c-4\",\"amountCents\":900}");
        await("o-outage dead-lettered after its receives", () -> depth(aws, receiptsDlq) == 3);

        send(aws, revenue, "{\"orderId\":\"o-bad\",\"customer\":\"c-5\",\"amountCents\":\"lots\"}");
        await("o-bad dead-lettered as SCHEMA", () -> depth(aws, revenueDlq) == 1);

        // The webhook is fixed; on-call approves the outage as a maintenance window of receipts-webhook.
        outage.set(false);
        refuseUntilFixed.clear();
        String sweeper = app.function("RedriveSweeperFunction");
        Map<String, String> sweeperEnv = app.environmentOf(sweeper);
        new DynamoDbMaintenanceWindows(aws.dynamoDb(), sweeperEnv.get("REDRIVE_SWEEPER_CONTROL_TABLE"))
                .add(new MaintenanceWindow(
                        "chg-quickstart",
                        "receipts-webhook",
                        outageStarted.minusSeconds(60),
                        Instant.now(),
                        "quickstart-run",
                        "receipts webhook outage (over)"));

        check(
                "the sweeper's code holds none of the quickstart's",
                app.artifactOf(sweeper).classpath().split(java.io.File.pathSeparator).length > 0
                        && Arrays.stream(app.artifactOf(sweeper).classpath().split(java.io.File.pathSeparator))
                                .noneMatch(QuickstartRun::holdsQuickstartCode),
                app.artifactOf(sweeper).classpath());
        check("the CLI's jar holds none of the quickstart's", !holdsQuickstartCode(cliJar.toString()), cliJar);
        InvocationResult sweep = app.invoke(sweeper, "{\"source\":\"redrive.local-run\"}");
        check("the sweeper ran", sweep instanceof InvocationResult.Response, sweep);
        JsonNode summary = sweep instanceof InvocationResult.Response r ? JSON.readTree(r.body()) : JSON.nullNode();
        report.put("sweep", summary);
        JsonNode receiptsRun = summary.path("quickstart-receipts-dlq");
        check(
                "the sweeper quarantined Receipts' 3 dead letters",
                receiptsRun.path("quarantined").asInt() == 3,
                receiptsRun);
        check(
                "the sweeper replayed the one the window explains",
                receiptsRun.path("replayOutcomes").path("Sent").asInt() == 1,
                receiptsRun);
        check(
                "the sweeper quarantined Revenue's dead letter",
                summary.path("quickstart-revenue-dlq").path("quarantined").asInt() == 1,
                summary);
        await("o-outage applied once by its replay", () -> count(applied, "o-outage") == 1);

        Map<String, String> cliEnv = new LinkedHashMap<>(aws.environment());
        for (String v : List.of(
                "REDRIVE_CLAIMS_TABLE",
                "REDRIVE_SWEEPER_QUARANTINE_TABLE",
                "REDRIVE_SWEEPER_CONTROL_TABLE",
                "REDRIVE_SWEEPER_ARCHIVE_BUCKET",
                "REDRIVE_ROUTES",
                "REDRIVE_CLAIM_CHECKS_BUCKET")) {
            cliEnv.put(v, sweeperEnv.get(v));
        }
        // the webhook refused o-late with HTTP 400 (PERMANENT) until it was fixed: the operator says so
        List<JsonNode> receiptsReplays = cli(cliJar, cliEnv, "quickstart-receipts", 0, "--allow-class", "PERMANENT");
        // a refusal leaves the run partial: the CLI's exit status 1 says so
        List<JsonNode> revenueReplays = cli(cliJar, cliEnv, "quickstart-revenue", 1);
        report.put("redrive replay --filter queue=quickstart-receipts", receiptsReplays);
        report.put("redrive replay --filter queue=quickstart-revenue", revenueReplays);
        check(
                "redrive replay sent o-late and marked o-dup already applied",
                outcomes(receiptsReplays).equals(Map.of("Sent", 1, "AlreadyApplied", 1)),
                receiptsReplays);
        check("redrive replay refused o-bad", outcomes(revenueReplays).equals(Map.of("Refused", 1)), revenueReplays);
        await("o-late applied once by its replay", () -> count(applied, "o-late") == 1);

        DynamoDbQuarantineLedger ledger = new DynamoDbQuarantineLedger(
                aws.dynamoDb(),
                sweeperEnv.get("REDRIVE_SWEEPER_QUARANTINE_TABLE"),
                sweeperEnv.get("REDRIVE_SWEEPER_CONTROL_TABLE"),
                Clock.systemUTC());
        Optional<QuarantineRecord> bad = ledger.ofQueue("quickstart-revenue", 10).stream()
                .filter(r -> r.origin().idempotencyKey().equals("revenue#o-bad"))
                .findFirst();
        check(
                "o-bad is archived with its reason",
                bad.isPresent()
                        && bad.get().state().name().equals("ARCHIVED")
                        && bad.get().note().startsWith("incompatible: ")
                        && bad.get().note().contains("amountCents"),
                bad.map(r -> r.state() + ": " + r.note()).orElse("not found"));
        Map<String, Integer> effects = new LinkedHashMap<>();
        applied.forEach((k, v) -> effects.put(k, v.get()));
        report.put("receiptsApplied", effects);
        check(
                "every order's receipt was applied exactly once",
                effects.equals(Map.of("o-1", 1, "o-dup", 1, "o-late", 1, "o-outage", 1)),
                effects);
    }

    private List<JsonNode> cli(Path cliJar, Map<String, String> env, String queue, int expectedExit, String... options)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                cliJar.toAbsolutePath().toString(),
                "--actor",
                "quickstart-run",
                "replay",
                "--filter",
                "queue=" + queue,
                "--yes",
                "--json",
                "--reason",
                "the webhook is fixed"));
        command.addAll(List.of(options));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process process = pb.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = process.waitFor();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("{")) {
                lines.add(JSON.readTree(line));
            }
        }
        check("redrive replay of " + queue + " exited " + expectedExit, exit == expectedExit, out);
        if (exit != expectedExit) {
            System.out.println("quickstart run: redrive replay of " + queue + " exited " + exit + ":\n" + out);
        }
        return lines;
    }

    /** Whether the jar at {@code path} holds a class of the quickstart ({@code com/example/quickstart/}). */
    static boolean holdsQuickstartCode(String path) {
        try (JarFile jar = new JarFile(path)) {
            return jar.stream().anyMatch(e -> e.getName().startsWith("com/example/quickstart/"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    private static Map<String, Integer> outcomes(List<JsonNode> lines) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (JsonNode line : lines) {
            if (line.has("outcome")) {
                counts.merge(line.get("outcome").asText(), 1, Integer::sum);
            }
        }
        return counts;
    }

    private static String queue(TemplateApp app, String name) {
        return app.resources()
                .queueNamed(name)
                .orElseThrow(() -> new IllegalStateException("the template has no queue " + name))
                .url();
    }

    private static void send(LocalAws aws, String queue, String body) {
        aws.sqs().sendMessage(b -> b.queueUrl(queue).messageBody(body));
    }

    private static long depth(LocalAws aws, String queue) {
        Map<String, String> attributes = new LinkedHashMap<>();
        aws.sqs()
                .getQueueAttributes(b -> b.queueUrl(queue).attributeNamesWithStrings("ApproximateNumberOfMessages"))
                .attributesAsStrings()
                .forEach(attributes::put);
        return Long.parseLong(attributes.getOrDefault("ApproximateNumberOfMessages", "0"));
    }

    private static int count(Map<String, AtomicInteger> counts, String key) {
        AtomicInteger c = counts.get(key);
        return c == null ? 0 : c.get();
    }

    private void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("gave up waiting " + WAIT.toSeconds() + " s for: " + what
                        + " (webhook calls " + calls + ", applied " + applied + ")");
            }
            Thread.sleep(100); // polling a condition of other processes, with a deadline
        }
        System.out.println("quickstart run: " + what);
    }

    private void check(String what, boolean passed, Object evidence) {
        report.put((passed ? "PASS " : "FAIL ") + what, String.valueOf(evidence));
        if (!passed) {
            failures.add(what);
        }
        System.out.println("quickstart run: " + (passed ? "PASS " : "FAIL ") + what);
    }

    private static String orderId(InputStream body) throws IOException {
        return JSON.readTree(body.readAllBytes()).path("orderId").asText("");
    }
}
