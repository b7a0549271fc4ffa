package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The command line of {@code bin/redrive-local}: the practice ground's flags. */
class RunOptionsTest {

    @Test
    void practiceAndKeepRunningAreOffUnlessAskedFor() {
        RunOptions options = RunOptions.parse(new String[0]);

        assertThat(options.practice()).isZero();
        assertThat(options.keepRunning()).isFalse();
    }

    @Test
    void theIncidentLeavesDeadLettersForPracticeAndKeepsRunning() {
        RunOptions options = RunOptions.parse(new String[] {"--practice", "400", "--keep-running", "--dead", "60"});

        assertThat(options.scenario()).isEqualTo("incident");
        assertThat(options.practice()).isEqualTo(400);
        assertThat(options.keepRunning()).isTrue();
        assertThat(options.deadLettered()).isEqualTo(60);
    }

    @Test
    void anyScenarioCanKeepRunning() {
        assertThat(RunOptions.parse(new String[] {"--scenario", "basic", "--keep-running"})
                        .keepRunning())
                .isTrue();
    }

    @Test
    void practiceIsAnOptionOfTheIncidentOnly() {
        assertThatThrownBy(() -> RunOptions.parse(new String[] {"--scenario", "poison", "--practice", "10"}))
                .isInstanceOf(RunOptions.UsageException.class)
                .hasMessage("--practice is an option of the incident scenario (--scenario incident), not of poison");
        assertThatThrownBy(() -> RunOptions.parse(new String[] {"--practice", "-1"}))
                .hasMessage("--practice must be at least 0, was -1");
        assertThatThrownBy(() -> RunOptions.parse(new String[] {"--practice"})).hasMessage("--practice needs a value");
    }

    @Test
    void theUsageNamesBothFlags() {
        assertThat(RunOptions.USAGE).contains("--practice P", "--keep-running");
    }
}
