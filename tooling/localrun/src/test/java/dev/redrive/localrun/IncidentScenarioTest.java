package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.Scenario;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The incident scenario at a small, odd size, on the packaged functions and the stack bin/redrive-local synthesizes:
 * the design's split must be exact, not only its promise. Of the N orders the outage dead-letters, the M the outbox
 * sweep republishes are applied by that late retry of the producer and marked already applied at the sweep (nothing
 * sent), the K legacy dead letters are archived, and the N-M-K others are replayed, order by order.
 *
 * <p>The schedules fire 30 times faster than their rate (the CLI's default is 6): the sweeper's schedule then fires
 * every couple of seconds, so a scheduled sweep is running whenever the M orders are on their way. Other sizes and
 * speeds, for measuring: {@code -Dredrive.incident.orders=T}, {@code .dead=N}, {@code .applied=M}, {@code .legacy=K},
 * {@code .schedule-speed=S}.
 *
 * <p>Time is compressed further than the demo stack's (the split does not depend on it, the waits do): the mail
 * provider's breaker opens for 1 s up to 2 s with a probe's lease of 3 s ({@link LocalStackContext#COMPRESSED_BREAKER};
 * the stack's 5 s up to 20 s, and 30 s: most of the outage's and the recovery's
 * wall time was messages deferred by the open breaker, a message's last receive by the capped period and the lease), and the
 * consumers' source queues hide a message {@value #VISIBILITY_SECONDS} s (twice the consumer timeout instead of six
 * times: a first batch that a cold sandbox on a busy machine does not finish in time comes back sooner). The consumer
 * timeout is {@link LocalStackContext#BUILD_CONSUMER_TIMEOUT}, not the demo's 6 s ({@link
 * LocalStackContext#forTheBuildsIncidentRuns}): the build runs this beside four other whole systems on two cores. {@code
 * -Dredrive.incident.as-deployed=true} runs the stack bin/redrive-local runs, unchanged. Measured in one module run on
 * a machine at load 30 to 50 ({@code ./mvnw -o test -pl tooling/localrun -am -Dtest='dev.redrive.localrun.**'}): 86 s
 * compressed, against 271 s as deployed in a run of the same hour.
 */
class IncidentScenarioTest {

    static final int ORDERS = Integer.getInteger("redrive.incident.orders", 6);
    static final int DEAD = Integer.getInteger("redrive.incident.dead", 13);
    static final int APPLIED = Integer.getInteger("redrive.incident.applied", 5);
    static final int LEGACY = Integer.getInteger("redrive.incident.legacy", 1);
    static final double SCHEDULE_SPEED =
            Double.parseDouble(System.getProperty("redrive.incident.schedule-speed", "30"));

    static final boolean AS_DEPLOYED = Boolean.getBoolean("redrive.incident.as-deployed");
    /** The demo stack's context keys this run replaces (see the class comment). */
    static final Map<String, String> OVERRIDES = LocalRunFixture.incidentOverrides();

    /** The consumers' source queues' visibility timeout, above the consumer's timeout and its claim's lease. */
    static final int VISIBILITY_SECONDS = 40;

    @Test
    void theSweepReplaysNMinusMMinusKMarksTheMAlreadyAppliedAndArchivesTheK() throws Exception {
        Path work = LocalRunFixture.ROOT.resolve("tooling/localrun/target/incident-scenario");
        Files.createDirectories(work);
        Path template = LocalRunFixture.synthesizeLocalStack(
                work.resolve("cdk.out"), false, AS_DEPLOYED ? Map.of() : OVERRIDES);
        RunOptions options = new RunOptions(
                "incident",
                ORDERS,
                DEAD,
                APPLIED,
                LEGACY,
                3,
                Optional.of(work.resolve("incident.json")),
                template,
                LocalRunFixture.packagedFunctions(),
                2,
                SCHEDULE_SPEED,
                work.resolve("run"));
        Files.createDirectories(options.workDir());
        Path progressLog = options.workDir().resolve("progress.log");
        RunReport report = new RunReport("incident");
        try (PrintStream progressOut =
                        new PrintStream(Files.newOutputStream(progressLog), true, StandardCharsets.UTF_8);
                LocalSystem system = LocalRunFixture.start(options, progressOut)) {
            if (!AS_DEPLOYED) {
                LocalRunFixture.sourceQueueVisibility(system, VISIBILITY_SECONDS);
            }
            Scenario.named("incident").run(system, options, new Progress(progressOut), report);
        } finally {
            report.writeJson(work.resolve("incident.json"));
        }

        Map<String, Object> result = report.toMap();
        String sweep = String.valueOf(result.get("sweep of the email DLQ"));
        assertThat(result.get("checks"))
                .as("the split (sweep of the email DLQ: %s)", sweep)
                .asInstanceOf(MAP)
                .containsEntry("replayed = N - M - K (" + (DEAD - APPLIED - LEGACY) + ")", true)
                .containsEntry("already applied = M (" + APPLIED + "), nothing sent for them", true)
                .containsEntry("archived to S3 with a note = K (" + LEGACY + ")", true)
                .containsEntry(
                        "by key: the M orders the outbox sweep republished are the ones marked already applied, and "
                                + "every other order of the outage was replayed",
                        true);
        assertThat(report.passed())
                .as("every check of the incident: %s", result.get("checks"))
                .isTrue();
    }
}
