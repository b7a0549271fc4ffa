package dev.redrive.localrun.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.localrun.Progress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The chaos run's waits. A 10,000-order run once lost its sweeper for good (its sandboxes could no longer start: a
 * rebuild had rewritten a jar under them), and the run went on waiting for its 30-minute drain with 291 dead letters
 * unswept, because the background sweeps swallowed the failure and the waits only watched the counts.
 */
class ChaosScenarioWaitTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final Progress progress = new Progress(new PrintStream(printed, true, StandardCharsets.UTF_8));

    @Test
    void aFunctionThatCanNoLongerStartEndsTheWaitAtOnce() {
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> ChaosScenario.awaitQuietly(
                        progress,
                        "the system to drain",
                        Duration.ofSeconds(60),
                        () -> "status",
                        () -> false,
                        () -> {
                            throw new IllegalStateException("function dlq-sweeper cannot start: 3 starts failed");
                        },
                        () -> "the system at the timeout"))
                .hasMessageContaining("dlq-sweeper cannot start");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aWaitThatTimesOutIsReportedWithTheSystemsEvidenceNotThrown() throws Exception {
        assertThat(ChaosScenario.awaitQuietly(
                        progress,
                        "the system to drain",
                        Duration.ofMillis(600),
                        () -> "status",
                        () -> false,
                        () -> {},
                        () -> "the system at the timeout:\n  dead letters recorded:\n    2 x confirmation-email\n"))
                .isFalse();
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("timed out after 0 s waiting for the system to drain")
                .contains("    2 x confirmation-email");
        assertThat(ChaosScenario.awaitQuietly(
                        progress,
                        "the system to drain",
                        Duration.ofSeconds(5),
                        () -> "status",
                        () -> true,
                        () -> {},
                        () -> {
                            throw new AssertionError("no evidence is gathered for a wait that ends in time");
                        }))
                .isTrue();
    }
}
