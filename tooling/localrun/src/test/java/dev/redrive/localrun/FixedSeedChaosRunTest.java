package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.localrun.chaos.Chaos;
import dev.redrive.localrun.chaos.ChaosOptions;
import dev.redrive.localrun.chaos.FaultKind;
import dev.redrive.localrun.chaos.ProducerCrashPoint;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.Scenario;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The chaos scenario with a fixed seed, inside the test command: the packaged functions under sandbox kills at every
 * step, pauses past the lease, AWS errors, latency, resets, SQS 500s on the event-source mapping, sweeper kills and
 * two sweepers at once, with a mail-provider outage, the sweeper's replays and a person's bulk replay; customers who
 * give up on a checkout without a final answer, and of those some come back with the same key after the
 * reconciliation's grace (issue 36: a return must never place an order on a voided authorization nor leave a charge
 * standing without an order, which the producer's checks state); the reconciliation killed between its void and its
 * release. Every checker
 * line must pass (one email and one revenue count per order, every dead letter accounted for, nothing lost or stuck,
 * no stale write accepted) and every fault kind must have struck.
 *
 * <p>The suite runs {@value #DEFAULT_ORDERS} orders with {@code --each-at-least-once}: every kind and every kill
 * point (each of the consumers' steps and each of the producer's crash points) strikes at its first opportunity, and
 * the faults stay on until each has struck, so the run needs no volume for them; the kinds that cost a sandbox cold
 * start (kills, pauses, sweeper kills) strike little more than that, the cheap ones (AWS errors, latency, resets) at
 * raised rates. {@code -Dredrive.chaos.orders=1000} runs a larger variant with the same seed and flags, {@code
 * -Dredrive.chaos.instances=N} gives each function N sandboxes (2 here) and {@code -Dredrive.chaos.faults="--pause
 * 0.005 ..."} replaces the fault flags ({@code -Dredrive.chaos.faults=by-rate -Dredrive.chaos.orders=150} is the
 * suite's former run, every kind by its rate alone), for measuring other sizes.
 */
class FixedSeedChaosRunTest {

    static final long SEED = 20261201L;
    static final int DEFAULT_ORDERS = 40;

    /**
     * Each kind and kill point once at its first opportunity, then at these rates: every sandbox kill, sweeper kill
     * and pause costs a JVM cold start (about 3 s of CPU here), so those strike about once or twice each; the producer's
     * crash points, which the test asserts one by one, a few times; the cheap AWS faults as often as in the former
     * 150-order run.
     */
    static final List<String> FAULTS = List.of(
            "--each-at-least-once",
            "--producers",
            "8",
            "--outage",
            "PT8S",
            "--sweeper-timeout",
            "PT15S",
            "--sweep-every",
            "PT2S",
            "--operator-every",
            "PT4S",
            "--drain-timeout",
            "PT4M",
            "--kill-at",
            "takes-event=0.002,claim-write=0.002,effect-call=0.002,effect-response=0.002,completed=0.002,"
                    + "returned=0.002,checkout-reserved=0.02,checkout-authorized=0.02,checkout-placed=0.02,"
                    + "relay-published=0.05,reconciliation-voided=0.2",
            "--abandon",
            "0.8",
            "--return",
            "0.9",
            "--provider-hang",
            "0.03",
            "--pause",
            "0.002",
            "--ddb-throttle",
            "0.015",
            "--ddb-500",
            "0.015",
            "--ddb-conflict",
            "0.015",
            "--s3-slowdown",
            "0.05",
            "--sqs-500",
            "0.05",
            "--latency",
            "0.015",
            "--reset",
            "0.01",
            "--sweeper-kill",
            "0.002",
            "--two-sweepers",
            "0.5");

    /**
     * The suite's former flags (150 orders, every kind by its rate alone): raised rates so that every kind struck in
     * about two minutes of traffic, the consumers' kill points, the pause and the sweeper kill a handful of times each.
     */
    static final List<String> RATES_WITHOUT_GUARANTEE = List.of(
            "--producers", "8",
            "--outage", "PT8S",
            "--sweeper-timeout", "PT15S",
            "--sweep-every", "PT2S",
            "--operator-every", "PT4S",
            "--drain-timeout", "PT4M",
            "--kill-at",
                    "takes-event=0.01,claim-write=0.005,effect-call=0.01,effect-response=0.01,completed=0.01,"
                            + "returned=0.015,checkout-reserved=0.02,checkout-authorized=0.02,checkout-placed=0.02,"
                            + "relay-published=0.1,reconciliation-voided=0.5",
            "--abandon", "0.8",
            "--return", "0.9",
            "--provider-hang", "0.03",
            "--pause", "0.01",
            "--ddb-throttle", "0.015",
            "--ddb-500", "0.015",
            "--ddb-conflict", "0.015",
            "--s3-slowdown", "0.05",
            "--sqs-500", "0.05",
            "--latency", "0.015",
            "--reset", "0.01",
            "--sweeper-kill", "0.01",
            "--two-sweepers", "0.5");

    /**
     * {@link #FAULTS}, or (for measuring other rates) the flags in {@code -Dredrive.chaos.faults}, space-separated, or
     * {@link #RATES_WITHOUT_GUARANTEE} for {@code -Dredrive.chaos.faults=by-rate} (with {@code
     * -Dredrive.chaos.orders=150}, the former suite run).
     */
    static List<String> faults() {
        String given = System.getProperty("redrive.chaos.faults", "").trim();
        if ("by-rate".equals(given)) {
            return RATES_WITHOUT_GUARANTEE;
        }
        return given.isEmpty() ? FAULTS : List.of(given.split("\\s+"));
    }

    @Test
    void underEveryFaultEachOrderIsAppliedOnceAndNothingIsLost() throws Exception {
        int orders = Integer.getInteger("redrive.chaos.orders", DEFAULT_ORDERS);
        Path work = LocalRunFixture.ROOT.resolve("tooling/localrun/target/fixed-seed-chaos");
        Files.createDirectories(work);
        Path template = synthesizeChaosStack(work.resolve("cdk.out"));
        RunOptions options = new RunOptions(
                        "chaos",
                        orders,
                        0,
                        0,
                        0,
                        3,
                        Optional.of(work.resolve("chaos.json")),
                        template,
                        LocalRunFixture.packagedFunctions(),
                        Integer.getInteger("redrive.chaos.instances", 2),
                        6,
                        work.resolve("run"))
                .withChaos(ChaosOptions.parse(SEED, faults()));
        Files.createDirectories(options.workDir());
        Path progressLog = options.workDir().resolve("progress.log");
        RunReport report = new RunReport("chaos");
        Map<FaultKind, Long> struck = new EnumMap<>(FaultKind.class);
        Map<String, Long> kills = new LinkedHashMap<>();
        try (PrintStream progressOut =
                        new PrintStream(Files.newOutputStream(progressLog), true, StandardCharsets.UTF_8);
                LocalSystem system = LocalRunFixture.start(options, progressOut)) {
            LocalRunFixture.sourceQueueVisibility(system, VISIBILITY_SECONDS);
            Scenario.named("chaos").run(system, options, new Progress(progressOut), report);
            Chaos chaos = system.chaos().orElseThrow();
            for (FaultKind kind : FaultKind.values()) {
                struck.put(kind, chaos.faults().total(kind));
            }
            kills.putAll(chaos.faults().counts().getOrDefault(FaultKind.SANDBOX_KILL, Map.of()));
        } catch (Progress.TimedOut stalled) {
            // A run that stalls fails with its progress, which ends with where every thread of the runner stood.
            throw new AssertionError(
                    stalled.getMessage() + "; the run (" + progressLog + "):\n" + Files.readString(progressLog),
                    stalled);
        }
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        report.print(new PrintStream(text, true, StandardCharsets.UTF_8));
        String printed = text.toString(StandardCharsets.UTF_8);
        System.out.println(printed);
        report.writeJson(options.report().orElseThrow());

        assertThat(report.passed())
                .as(
                        "every checker line of the chaos run passes; the report:%n%s%nthe run (%s):%n%s",
                        printed, progressLog, Files.readString(progressLog))
                .isTrue();
        Map<String, Object> checker = checker(report);
        assertThat(checker)
                .as("the checker's figures")
                .containsEntry("lost", 0L)
                .containsEntry("stuck", 0L);
        assertThat(struck)
                .as("injections by kind (each kind must have struck)")
                .allSatisfy((kind, n) -> assertThat(n).as(kind.flag()).isPositive());
        assertThat(kills)
                .as("kills by point (the producer's crash points among them)")
                .containsKeys(Arrays.stream(ProducerCrashPoint.values())
                        .map(ProducerCrashPoint::id)
                        .toArray(String[]::new));
    }

    /**
     * The source queues' visibility timeout down from the stack's 60 s (six times the 10 s consumer timeout), still
     * above a claim's lease (the invocation's 10 s plus the clock-skew margin): a batch whose sandbox was killed comes
     * back sooner, so the run drains in about half the time. Harsher, not gentler: a message comes back while its claim
     * may still be held more often than in the deployed stack.
     */
    static final int VISIBILITY_SECONDS = 20;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> checker(RunReport report) {
        return new LinkedHashMap<>((Map<String, Object>) report.toMap().get("checker"));
    }

    /** The chaos scenario's stack, synthesized as bin/redrive-local synthesizes it. */
    static Path synthesizeChaosStack(Path outdir) throws IOException {
        return LocalRunFixture.synthesizeLocalStack(outdir, true);
    }
}
