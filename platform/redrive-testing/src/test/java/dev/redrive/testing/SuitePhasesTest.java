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
        String printed = printedWhenOn(
                () -> assertThat(SuitePhases.timed("moto-start", () -> 42)).isEqualTo(42));

        assertThat(printed).matches("redrive-phase: moto-start \\d+ ms\\R");
    }

    @Test
    void aPhaseThatFailsIsStillTimedAndItsFailureGoesOn() {
        String printed = printedWhenOn(() -> assertThatThrownBy(() -> SuitePhases.timed("cdk-synth", () -> {
                    throw new IllegalStateException("synth failed");
                }))
                .hasMessage("synth failed"));

        assertThat(printed).matches("redrive-phase: cdk-synth \\d+ ms\\R");
    }

    /**
     * Off unless the build turns it on: bin/redrive-local's output and a user's own tests on {@code LocalAws} are not the
     * place for the suite's phase lines (a newcomer saw them between the local run's progress lines).
     */
    @Test
    void withoutTheBuildsPropertyATimedPhasePrintsNothing() {
        String printed = printedWith(
                null,
                () -> assertThat(SuitePhases.timed("moto-start", () -> 42)).isEqualTo(42));

        assertThat(printed).isEmpty();
    }

    @Test
    void aPhaseNameWithSpacesIsRefusedBecauseTheSummarySplitsOnThem() {
        assertThatThrownBy(() -> SuitePhases.line("moto start", 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'moto start'");
        assertThat(SuitePhases.line("moto-start", 1234)).isEqualTo("redrive-phase: moto-start 1234 ms");
    }

    /** Runs {@code work} with the build's property on, as every test JVM of the build has it. */
    private static String printedWhenOn(Runnable work) {
        return printedWith("true", work);
    }

    /** What {@code work} prints with the build's property set to {@code value} (null: unset); then as it was. */
    private static String printedWith(String value, Runnable work) {
        String before = System.getProperty(SuitePhases.ENABLED_PROPERTY);
        set(value);
        try {
            return capture(work);
        } finally {
            set(before);
        }
    }

    private static void set(String value) {
        if (value == null) {
            System.clearProperty(SuitePhases.ENABLED_PROPERTY);
        } else {
            System.setProperty(SuitePhases.ENABLED_PROPERTY, value);
        }
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
