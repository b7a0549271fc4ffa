package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/ci-summary}: the tables {@code .ci/run} ends with, read from the build's log. */
class CiSummaryTest {

    static final Path SCRIPT = Path.of("../..").toAbsolutePath().normalize().resolve("bin/ci-summary");

    @TempDir
    Path dir;

    /**
     * The CI run of 792ff8f passed every test and still failed with exit 141: {@code sort | head -10} under {@code
     * pipefail} dies of SIGPIPE when head stops reading before sort has written everything, which depends on timing
     * for a few hundred classes and always happens once sort's output outgrows the pipe.
     */
    @Test
    void aLogOfThousandsOfTestClassesPrintsTheSlowestTenAndExitsZero() throws Exception {
        List<String> log = new ArrayList<>();
        int classes = 5_000;
        for (int i = 1; i <= classes; i++) {
            log.add(String.format(
                    Locale.ROOT,
                    "[INFO] Tests run: %d, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: %d.%03d s -- in dev.example.Test%04d",
                    i % 7 + 1,
                    i / 1000,
                    i % 1000,
                    i));
        }
        log.add("[INFO] Reactor Summary for Redrive 0.1.0-SNAPSHOT:");
        log.add("[INFO] Redrive :: core .................................... SUCCESS [ 20.213 s]");
        log.add("[INFO] Redrive :: local run ............................... SUCCESS [09:16 min]");
        log.add("[INFO] ------------------------------------------------------------------------");
        Path file = dir.resolve("verify.log");
        Files.write(file, log, StandardCharsets.UTF_8);

        Result r = run(file.toString());

        assertThat(r.stderr).isEmpty();
        assertThat(r.exit).isZero();
        List<String> lines = r.stdout.lines().toList();
        assertThat(lines).contains("  Redrive :: core                    SUCCESS  20.213 s");
        assertThat(lines).contains("  Redrive :: local run               SUCCESS  09:16 min");
        int header = lines.indexOf(
                "redrive: the slowest ten test classes (seconds, tests, class), so a slow newcomer is seen when it lands");
        assertThat(lines.subList(header + 1, header + 11))
                .extracting(l -> l.strip().replaceAll(" +", " "))
                .containsExactly(
                        "5.0 s 3 dev.example.Test5000",
                        "5.0 s 2 dev.example.Test4999",
                        "5.0 s 1 dev.example.Test4998",
                        "5.0 s 7 dev.example.Test4997",
                        "5.0 s 6 dev.example.Test4996",
                        "5.0 s 5 dev.example.Test4995",
                        "5.0 s 4 dev.example.Test4994",
                        "5.0 s 3 dev.example.Test4993",
                        "5.0 s 2 dev.example.Test4992",
                        "5.0 s 1 dev.example.Test4991");
        assertThat(lines.get(header + 11)).isEqualTo("redrive: 5000 test classes ran");
    }

    /**
     * Where the time goes: every {@code redrive-phase:} line (printed by {@code SuitePhases}) and every Quarkus boot is
     * added up per phase, largest total first, with its count and mean.
     */
    @Test
    void phaseLinesAndQuarkusBootsAreAddedUpPerPhaseLargestTotalFirst() throws Exception {
        Path file = dir.resolve("phases.log");
        Files.write(
                file,
                List.of(
                        "redrive-phase: moto-start 1500 ms",
                        "[INFO] Running dev.example.SomeTest",
                        "redrive-phase: moto-start 2600 ms",
                        "2026-12-06 15:01:02,003 INFO  [io.quarkus] (main) functions 0.1.0 on JVM (powered by Quarkus"
                                + " 3.33.2) started in 1.422s. Listening on: http://127.0.0.1:4711",
                        "(powered by Quarkus 3.33.2) started in 14.045s.",
                        "redrive-phase: cdk-synth 9000 ms"),
                StandardCharsets.UTF_8);

        Result r = run(file.toString());

        assertThat(r.exit).isZero();
        List<String> lines = r.stdout.lines().toList();
        int header = lines.indexOf("redrive: where the time goes, by phase (count, total and mean seconds;"
                + " redrive-phase lines and Quarkus boots)");
        assertThat(header).as("the phase table's header in:%n%s", r.stdout).isNotNegative();
        assertThat(lines.subList(header + 1, lines.size()))
                .extracting(l -> l.strip().replaceAll(" +", " "))
                .containsExactly(
                        "quarkus-boot 2 15.5 s 7.73 s", "cdk-synth 1 9.0 s 9.00 s", "moto-start 2 4.1 s 2.05 s");
    }

    @Test
    void aLogWithoutTestLinesPrintsAnEmptyTableAndZeroClasses() throws Exception {
        Path file = dir.resolve("empty.log");
        Files.writeString(file, "[ERROR] Failed to execute goal\n");

        Result r = run(file.toString());

        assertThat(r.exit).isZero();
        assertThat(r.stdout).contains("redrive: 0 test classes ran");
    }

    @Test
    void aMissingLogIsNamedWithExitTwo() throws Exception {
        Result r = run(dir.resolve("nowhere.log").toString());

        assertThat(r.exit).isEqualTo(2);
        assertThat(r.stderr.strip()).isEqualTo("redrive: ci-summary: no readable log at " + dir.resolve("nowhere.log"));
    }

    record Result(int exit, String stdout, String stderr) {}

    private Result run(String log) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(SCRIPT.toString(), log);
        Path out = dir.resolve("out-" + System.nanoTime());
        Path err = dir.resolve("err-" + System.nanoTime());
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("finished").isTrue();
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
