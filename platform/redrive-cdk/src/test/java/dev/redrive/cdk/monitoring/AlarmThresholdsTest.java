package dev.redrive.cdk.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The thresholds' defaults, and every bad value refused with the name of its setting. */
class AlarmThresholdsTest {

    private static final AlarmThresholds D = AlarmThresholds.DEFAULT;

    @Test
    void theDefaults() {
        assertThat(D.sourceOldestMessageAge()).isEqualTo(Duration.ofMinutes(15));
        assertThat(D.sourceVisibleMessages()).isEqualTo(1000);
        assertThat(D.deadLetterOldestMessageAge()).isEqualTo(Duration.ofHours(1));
        assertThat(D.deadLetterVisibleMessages()).isEqualTo(100);
        assertThat(D.oldestUnresolvedQuarantine()).isEqualTo(Duration.ofDays(3));
        assertThat(D.replaySuccessRate()).isEqualTo(0.9);
        assertThat(D.replaySuccessWindow()).isEqualTo(Duration.ofHours(1));
        assertThat(D.breakerOpen()).isEqualTo(Duration.ofMinutes(15));
        assertThat(D.period()).isEqualTo(Duration.ofMinutes(5));
        assertThat(D.evaluationPeriods()).isEqualTo(3);
        assertThat(D.deadLetterArrivalBand()).isEqualTo(2);
        assertThat(D.functionErrors()).isEqualTo(1);
        assertThat(D.functionThrottles()).isEqualTo(1);
        assertThat(D.tableThrottles()).isEqualTo(1);
        assertThat(D.accountConcurrency()).isEqualTo(900);
        assertThat(D.sweeperHeartbeat()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void theHeartbeatMustCoverTwoSweeps() {
        D.requireHeartbeatCovers(Duration.ofMinutes(15));
        assertThatThrownBy(() -> D.requireHeartbeatCovers(Duration.ofMinutes(16)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sweeperHeartbeat PT30M must be at least twice the sweep interval PT16M");
    }

    @Test
    void eachWithChangesOnlyItsSettings() {
        assertThat(D.withSourceVisibleMessages(5))
                .isEqualTo(new AlarmThresholds(
                        Duration.ofMinutes(15),
                        5,
                        Duration.ofHours(1),
                        100,
                        Duration.ofDays(3),
                        0.9,
                        Duration.ofHours(1),
                        Duration.ofMinutes(15),
                        Duration.ofMinutes(5),
                        3,
                        2,
                        1,
                        1,
                        1,
                        900,
                        Duration.ofMinutes(30)));
        assertThat(D.withPeriod(Duration.ofMinutes(1), 1))
                .returns(Duration.ofMinutes(1), AlarmThresholds::period)
                .returns(1, AlarmThresholds::evaluationPeriods)
                .returns(1000, AlarmThresholds::sourceVisibleMessages);
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                bad("sourceOldestMessageAge must be positive", () -> D.withSourceOldestMessageAge(Duration.ZERO)),
                bad("sourceOldestMessageAge is missing", () -> D.withSourceOldestMessageAge(null)),
                bad("sourceVisibleMessages must be at least 1, was 0", () -> D.withSourceVisibleMessages(0)),
                bad(
                        "deadLetterOldestMessageAge must be positive",
                        () -> D.withDeadLetterOldestMessageAge(Duration.ofSeconds(-1))),
                bad("deadLetterVisibleMessages must be at least 1", () -> D.withDeadLetterVisibleMessages(-3)),
                bad(
                        "oldestUnresolvedQuarantine must be positive",
                        () -> D.withOldestUnresolvedQuarantine(Duration.ZERO)),
                bad(
                        "replaySuccessRate must be in (0, 1], was 0.0",
                        () -> D.withReplaySuccessRate(0, Duration.ofHours(1))),
                bad(
                        "replaySuccessRate must be in (0, 1], was 1.5",
                        () -> D.withReplaySuccessRate(1.5, Duration.ofHours(1))),
                bad(
                        "replaySuccessWindow must be whole minutes",
                        () -> D.withReplaySuccessRate(0.9, Duration.ofSeconds(90))),
                bad("breakerOpen must be positive", () -> D.withBreakerOpen(Duration.ZERO)),
                bad("period must be whole minutes", () -> D.withPeriod(Duration.ofSeconds(30), 3)),
                bad("period must be whole minutes", () -> D.withPeriod(Duration.ofSeconds(61), 3)),
                bad("evaluationPeriods must be at least 1", () -> D.withPeriod(Duration.ofMinutes(5), 0)),
                bad("deadLetterArrivalBand must be in (0, 100]", () -> D.withDeadLetterArrivalBand(0)),
                bad("deadLetterArrivalBand must be in (0, 100]", () -> D.withDeadLetterArrivalBand(101)),
                bad("functionErrors must be at least 1", () -> D.withFunctionAlarms(0, 1)),
                bad("functionThrottles must be at least 1", () -> D.withFunctionAlarms(1, 0)),
                bad("tableThrottles must be at least 1", () -> D.withTableThrottles(0)),
                bad("accountConcurrency must be at least 1", () -> D.withAccountConcurrency(0)),
                bad("sweeperHeartbeat must be whole minutes", () -> D.withSweeperHeartbeat(Duration.ofSeconds(90))),
                bad("sweeperHeartbeat must be at most a day", () -> D.withSweeperHeartbeat(Duration.ofHours(25))));
    }

    private static Arguments bad(String message, Supplier<AlarmThresholds> make) {
        return Arguments.of(message, make);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void aBadValueIsRefusedNamingItsSetting(String message, Supplier<AlarmThresholds> make) {
        assertThatThrownBy(make::get)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("alarm threshold " + message);
    }
}
