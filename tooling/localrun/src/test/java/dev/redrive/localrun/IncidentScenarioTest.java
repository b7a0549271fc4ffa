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
 */
class IncidentScenarioTest {

    static final int ORDERS = Integer.getInteger("redrive.incident.orders", 6);
    static final int DEAD = Integer.getInteger("redrive.incident.dead", 13);
    static final int APPLIED = Integer.getInteger("redrive.incident.applied", 5);
    static final int LEGACY = Integer.getInteger("redrive.incident.legacy", 1);
    static final double SCHEDULE_SPEED =
            Double.parseDouble(System.getProperty("redrive.incident.schedule-speed", "30"));

    @Test
    void theSweepReplaysNMinusMMinusKMarksTheMAlreadyAppliedAndArchivesTheK() throws Exception {
        Path work = LocalRunFixture.ROOT.resolve("tooling/localrun/target/incident-scenario");
        Files.createDirectories(work);
        Path template = LocalRunFixture.synthesizeLocalStack(work.resolve("cdk.out"), false);
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
