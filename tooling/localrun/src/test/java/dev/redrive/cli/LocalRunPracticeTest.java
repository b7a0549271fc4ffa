package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.LocalRun;
import dev.redrive.localrun.LocalRunFixture;
import dev.redrive.localrun.OperatorSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The incident, and the local run as a practice ground, as a person uses it: {@code bin/redrive-local}'s main class
 * runs the incident with {@code --practice} and {@code --keep-running} in a process of its own. Its report must pass
 * every check, the split above all: of the N dead letters of the outage, the sweep replays N-M-K, marks the M the
 * outbox sweep had republished already applied (nothing sent for them), and archives the K legacy ones to S3 with a
 * note, order by order. Then the block of settings it prints is parsed (not compared as text) and the CLI, run
 * in-process with exactly those settings and nothing else, reads the run's dead letters from the running local AWS;
 * then SIGTERM stops the process and everything it started.
 *
 * <p>The build runs one incident, this one (it was two, with {@code IncidentScenarioTest}'s in-process run of the same
 * scenario, whose assertions are here now): each whole system costs the build a local AWS, a stack's synth, a
 * class-data archive and eight sandbox JVMs. Other sizes, and the stack as deployed, run by hand: {@code
 * bin/redrive-local --scenario incident --orders T --dead N --applied M --legacy K}.
 *
 * <p>Time is compressed further than the demo stack's (the split does not depend on it, the waits do): the mail
 * provider's breaker opens for 1 s up to 2 s with a probe's lease of 3 s ({@link
 * dev.redrive.localrun.LocalStackContext#COMPRESSED_BREAKER}; the stack's 5 s up to 20 s, and 30 s: most of the
 * outage's and the recovery's wall time was messages deferred by the open breaker), the schedules fire 30 times faster
 * than their rate (the sweeper's every couple of seconds, so a scheduled sweep is running whenever the M orders are on
 * their way), and the consumer timeout is {@link dev.redrive.localrun.LocalStackContext#BUILD_CONSUMER_TIMEOUT}, not
 * the demo's 6 s: the build runs this beside other whole systems on two cores.
 */
class LocalRunPracticeTest {

    static final int ORDERS = 6;
    static final int DEAD = 13;
    static final int APPLIED = 5;
    static final int LEGACY = 1;
    /** Two of each of the seven kinds of practice dead letter. */
    static final int PRACTICE = 14;

    static final Duration RUN = Duration.ofMinutes(10);

    @TempDir
    Path dir;

    private Process run;
    private final List<String> out = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopTheRun() throws IOException {
        // what the run printed, to read after the test (the temporary folder goes)
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", "local-run-practice.out"), out);
        if (run != null && run.isAlive()) {
            run.descendants().forEach(ProcessHandle::destroyForcibly);
            run.destroyForcibly();
        }
    }

    @Test
    void thePrintedSettingsTakeTheCliToTheRunsDeadLettersWhileItKeepsRunningAndSigtermEndsIt() throws Exception {
        // The stack bin/redrive-local synthesizes, with the incident's breaker compressed and its consumer timeout
        // raised (see the class comment): the waits shrink, the checks do not, and a cold first batch beside the
        // build's other whole-system runs fits its timeout.
        Path report = dir.resolve("incident.json");
        Path template = LocalRunFixture.synthesizeLocalStack(
                dir.resolve("cdk.out"), false, LocalRunFixture.incidentOverrides());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LocalRun.class.getName(),
                "--scenario",
                "incident",
                "--orders",
                Integer.toString(ORDERS),
                "--dead",
                Integer.toString(DEAD),
                "--applied",
                Integer.toString(APPLIED),
                "--legacy",
                Integer.toString(LEGACY),
                "--practice",
                Integer.toString(PRACTICE),
                "--schedule-speed",
                "30",
                "--keep-running",
                "--report",
                report.toString(),
                "--template",
                template.toString(),
                "--functions",
                LocalRunFixture.packagedFunctions().toString()));
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir.toFile()) // its work folder (tooling/localrun/target/run) is made under it
                .redirectError(dir.resolve("stderr.log").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("AWS_")); // it starts local AWS of its own
        run = pb.start();
        Thread reader = new Thread(this::readOutput, "local-run-output");
        reader.setDaemon(true);
        reader.start();

        awaitLine(l -> l.equals(OperatorSettings.END), "the settings block");
        Map<String, String> env = settings(out);
        assertThat(env)
                .as("what the block exports")
                .containsKeys(
                        "AWS_REGION",
                        "AWS_ACCESS_KEY_ID",
                        "AWS_SECRET_ACCESS_KEY",
                        "AWS_ENDPOINT_URL_SQS",
                        "AWS_ENDPOINT_URL_DYNAMODB",
                        "AWS_ENDPOINT_URL_S3",
                        Settings.QUARANTINE_TABLE,
                        Settings.CONTROL_TABLE,
                        Settings.ARCHIVE_BUCKET,
                        Settings.CLAIMS_TABLE,
                        Settings.ROUTES);
        awaitLine(l -> l.startsWith(LocalRun.KEEPING_RUNNING), "the scenario's end and the system kept running");
        assertThat(out)
                .as("the incident's report; where it failed: %s", whereItFailed())
                .contains("All checks passed.");
        JsonNode checks = new ObjectMapper().readTree(report.toFile()).get("checks");
        Map<String, Boolean> split = new TreeMap<>();
        for (String check : List.of(
                "replayed = N - M - K (" + (DEAD - APPLIED - LEGACY) + ")",
                "already applied = M (" + APPLIED + "), nothing sent for them",
                "archived to S3 with a note = K (" + LEGACY + ")",
                "by key: the M orders the outbox sweep republished are the ones marked already applied, and every "
                        + "other order of the outage was replayed")) {
            split.put(check, checks.has(check) ? checks.get(check).asBoolean() : null);
        }
        assertThat(split)
                .as("the split, in the report's checks: %s", checks)
                .allSatisfy((check, passed) -> assertThat(passed).as(check).isTrue());
        List<ProcessHandle> started = run.descendants().toList();
        assertThat(started).as("local AWS and the sandboxes, still up").isNotEmpty();

        // The CLI with exactly the printed settings: the practice dead letters, grouped as the person sees them.
        CommandRun groups = cli(env, "list", "--state", "QUARANTINED", "--group", "--json", "--limit", "50");
        assertThat(groups.exit()).as(groups.toString()).isZero();
        Map<String, Integer> byErrorType = new TreeMap<>();
        for (JsonNode g : new ObjectMapper().readTree(groups.out())) {
            byErrorType.merge(g.get("errorType").asText(), g.get("count").asInt(), Integer::sum);
        }
        assertThat(byErrorType)
                .as("%d practice dead letters, two of each kind (the two Timeout kinds share a group)", PRACTICE)
                .isEqualTo(Map.of(
                        "Timeout", 4,
                        "SlowDown", 2,
                        "ProvisionedThroughputExceededException", 2,
                        "InvalidRecipient", 2,
                        "OutdatedVersion", 2,
                        "NoFailureRecorded", 2));
        // The incident's own: N - K replayed by its sweep (M of them "already applied"), and its K archived to S3,
        // whose tombstones left the ledger's by-state index: the listing reads them by the routes' queues.
        CommandRun incident = cli(env, "list", "--state", "REPLAYED", "--json", "--limit", "100");
        assertThat(incident.exit()).as(incident.toString()).isZero();
        assertThat(new ObjectMapper().readTree(incident.out()))
                .as("the incident's %d dead letters its sweep replayed or found applied", DEAD - LEGACY)
                .hasSize(DEAD - LEGACY);
        CommandRun archived = cli(env, "list", "--state", "ARCHIVED", "--json", "--limit", "100");
        assertThat(archived.exit()).as(archived.toString()).isZero();
        assertThat(new ObjectMapper().readTree(archived.out()))
                .as("the incident's %d legacy dead letters, archived to S3", LEGACY)
                .hasSize(LEGACY)
                .allSatisfy(r -> assertThat(r.get("state").asText()).isEqualTo("ARCHIVED"));
        assertThat(run.isAlive()).as("still running after answering the CLI").isTrue();

        // A stop request (SIGTERM, as Ctrl-C's SIGINT): the process and everything it started end.
        run.destroy();
        await().atMost(Duration.ofMinutes(2)).until(() -> !run.isAlive());
        assertThat(run.exitValue()).as("the exit status of a SIGTERM").isEqualTo(143);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(started.stream().filter(ProcessHandle::isAlive))
                        .as("processes the run started, still alive")
                        .isEmpty());
        URI sqs = URI.create(env.get("AWS_ENDPOINT_URL_SQS"));
        assertThat(refuses(sqs)).as("local AWS's SQS endpoint %s, closed", sqs).isTrue();
    }

    private void readOutput() {
        try (BufferedReader r =
                new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                out.add(line);
            }
        } catch (IOException e) {
            out.add("(reading the run's output failed: " + e + ")");
        }
    }

    private void awaitLine(Predicate<String> line, String what) {
        await().atMost(RUN).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (out.stream().anyMatch(line)) {
                return true;
            }
            if (!run.isAlive()) {
                throw new AssertionError("the local run ended (exit " + run.exitValue() + ") before " + what
                        + "; its output:\n" + String.join("\n", out) + "\nstderr:\n"
                        + Files.readString(dir.resolve("stderr.log")));
            }
            return false;
        });
    }

    /**
     * The lines of the run's output that say why it failed, first (a CI log shows the head of a long message): its
     * failed checks, and from the line saying it stopped (a wait that timed out, with the system's evidence) on; then
     * its standard error.
     */
    private String whereItFailed() throws IOException {
        List<String> lines = new ArrayList<>(out);
        List<String> why = new ArrayList<>(
                lines.stream().filter(l -> l.startsWith("  FAIL ")).toList());
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("the run stopped:")) {
                why.addAll(lines.subList(i, Math.min(lines.size(), i + 120)));
                break;
            }
        }
        Path stderr = dir.resolve("stderr.log");
        String err = Files.exists(stderr) ? Files.readString(stderr) : "";
        return String.join("\n", why) + "\nstderr:\n" + err.substring(Math.max(0, err.length() - 4000));
    }

    /** The variables the block between {@link OperatorSettings#BEGIN} and its end exports, unquoted as a shell does. */
    static Map<String, String> settings(List<String> lines) {
        int begin = lines.indexOf(OperatorSettings.BEGIN);
        int end = lines.indexOf(OperatorSettings.END);
        assertThat(begin).as("the block's first line").isNotNegative().isLessThan(end);
        Map<String, String> env = new LinkedHashMap<>();
        for (String l : lines.subList(begin + 1, end)) {
            if (l.startsWith("#")) {
                continue;
            }
            assertThat(l).as("a line of the block").matches("export [A-Z0-9_]+='.*'");
            String name = l.substring("export ".length(), l.indexOf('='));
            String quoted = l.substring(l.indexOf('=') + 1);
            env.put(name, quoted.substring(1, quoted.length() - 1).replace("'\\''", "'"));
        }
        return env;
    }

    record CommandRun(int exit, String out, String err) {}

    private static CommandRun cli(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (RedriveCli root = new RedriveCli(CliContext.of(env, Clock.systemUTC(), "practice"))) {
            CommandLine cl = RedriveCli.commandLine(root);
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int code = cl.execute(args);
            return new CommandRun(code, out.toString(), err.toString());
        }
    }

    private static boolean refuses(URI endpoint) {
        try (Socket s = new Socket(endpoint.getHost(), endpoint.getPort())) {
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            throw new AssertionError("connecting to " + endpoint + " failed otherwise than refused: " + e, e);
        }
    }
}
