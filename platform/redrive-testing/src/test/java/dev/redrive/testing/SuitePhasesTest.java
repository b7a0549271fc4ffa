package dev.redrive.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SuitePhasesTest {

    @Test
    void aTimedPhaseReturnsItsResultAndPrintsOneLineThatCiSummaryReads() {
        String printed = capture(
                () -> assertThat(SuitePhases.timed("moto-start", () -> 42)).isEqualTo(42));

        assertThat(printed).matches("redrive-phase: moto-start \\d+ ms\\R");
    }

    @Test
    void aPhaseThatFailsIsStillTimedAndItsFailureGoesOn() {
        String printed = capture(() -> assertThatThrownBy(() -> SuitePhases.timed("cdk-synth", () -> {
                    throw new IllegalStateException("synth failed");
                }))
                .hasMessage("synth failed"));

        assertThat(printed).matches("redrive-phase: cdk-synth \\d+ ms\\R");
    }

    @Test
    void aPhaseNameWithSpacesIsRefusedBecauseTheSummarySplitsOnThem() {
        assertThatThrownBy(() -> SuitePhases.line("moto start", 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'moto start'");
        assertThat(SuitePhases.line("moto-start", 1234)).isEqualTo("redrive-phase: moto-start 1234 ms");
    }

    private static synchronized String capture(Runnable work) {
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            work.run();
        } finally {
            System.setOut(original);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
