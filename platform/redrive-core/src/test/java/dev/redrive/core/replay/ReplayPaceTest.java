package dev.redrive.core.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplayPaceTest {

    @Test
    void aLaneNotNamedTakesTheDefaultRateAndANamedOneItsOwn() {
        ReplayPace pace = ReplayPace.DEFAULT.with("email-provider", 4);

        assertThat(pace.spacing("payments")).isEqualTo(Duration.ofMillis(100));
        assertThat(pace.spacing("email-provider")).isEqualTo(Duration.ofMillis(250));
        assertThat(ReplayPace.DEFAULT.horizon()).isEqualTo(Duration.ofMinutes(15));
    }

    @Test
    void aRateOutsideItsBoundsOrAHorizonPastSqssLongestDelayIsRefusedByName() {
        assertThatThrownBy(() -> new ReplayPace(0, Map.of(), Duration.ofMinutes(1)))
                .hasMessage("the replay rate must be above 0 and at most 1000 per second, not 0.0");
        assertThatThrownBy(() -> new ReplayPace(10, Map.of("email-provider", 5000.0), Duration.ofMinutes(1)))
                .hasMessage(
                        "the replay rate of email-provider must be above 0 and at most 1000 per second, not 5000.0");
        assertThatThrownBy(() -> new ReplayPace(Double.NaN, Map.of(), Duration.ofMinutes(1)))
                .hasMessageContaining("not NaN");
        assertThatThrownBy(() -> new ReplayPace(10, Map.of(), Duration.ofMinutes(16)))
                .hasMessage("the replay horizon must be between 0 and PT15M (SQS's longest delay), not PT16M");
    }

    @Test
    void laneRatesAreReadFromTheirSettingAndARefusedPairIsNamed() {
        ReplayPace pace =
                ReplayPace.of(10, " email-provider=5, consumer:revenue-analytics = 20.5 ", Duration.ofMinutes(5));

        assertThat(pace.byLane())
                .containsOnly(Map.entry("email-provider", 5.0), Map.entry("consumer:revenue-analytics", 20.5));
        assertThat(ReplayPace.of(pace.perSecond(), pace.laneRates(), pace.horizon()))
                .isEqualTo(pace);
        assertThat(ReplayPace.of(10, "", Duration.ZERO).byLane()).isEmpty();
        assertThatThrownBy(() -> ReplayPace.parseLaneRates("email-provider=5,payments"))
                .hasMessage("the lane rates must be lane=perSecond pairs separated by commas: 'payments' is not one");
        assertThatThrownBy(() -> ReplayPace.parseLaneRates("email-provider=fast"))
                .hasMessageContaining("'email-provider=fast' is not one");
        assertThatThrownBy(() -> ReplayPace.parseLaneRates("a=1,a=2")).hasMessage("the lane rates name a twice");
        assertThatThrownBy(() -> ReplayPace.of(10, "email-provider=0", Duration.ZERO))
                .hasMessageContaining("the replay rate of email-provider must be above 0");
    }

    @Test
    void thePaceIsReadFromTheSweepersVariablesAndARefusedOneIsNamed() {
        Map<String, String> env = Map.of(
                "REDRIVE_REPLAYS_RATE_PER_SECOND", "4.0",
                "REDRIVE_REPLAYS_LANE_RATES", "email-provider=2",
                "REDRIVE_REPLAYS_HORIZON", "PT5M");

        assertThat(ReplayPace.fromVariables(k -> Optional.ofNullable(env.get(k))))
                .isEqualTo(new ReplayPace(4, Map.of("email-provider", 2.0), Duration.ofMinutes(5)));
        assertThat(ReplayPace.fromVariables(k -> Optional.empty())).isEqualTo(ReplayPace.DEFAULT);
        assertThatThrownBy(() -> ReplayPace.fromVariables(
                        k -> k.equals("REDRIVE_REPLAYS_HORIZON") ? Optional.of("15 minutes") : Optional.empty()))
                .hasMessage("REDRIVE_REPLAYS_HORIZON=15 minutes is not an ISO-8601 duration (PT15M)");
        assertThatThrownBy(() -> ReplayPace.fromVariables(
                        k -> k.equals("REDRIVE_REPLAYS_RATE_PER_SECOND") ? Optional.of("-1") : Optional.empty()))
                .hasMessageStartingWith("the replay rate must be above 0")
                .hasMessageEndingWith(
                        "(REDRIVE_REPLAYS_RATE_PER_SECOND, REDRIVE_REPLAYS_LANE_RATES, " + "REDRIVE_REPLAYS_HORIZON)");
    }

    @Test
    void theBookingRuleNeverStartsInThePastNorPassesTheLatestSlot() {
        Instant t = Instant.parse("2026-12-03T12:00:00Z");
        Duration spacing = Duration.ofMillis(250);

        assertThat(PaceSlots.book(null, 3, spacing, t, t.plusSeconds(10))).isEqualTo(new PaceSlots(t, 3, spacing));
        assertThat(PaceSlots.book(t.minusSeconds(5), 3, spacing, t, t.plusSeconds(10)))
                .isEqualTo(new PaceSlots(t, 3, spacing));
        assertThat(PaceSlots.book(t.plusSeconds(2), 100, spacing, t, t.plusSeconds(3)))
                .isEqualTo(new PaceSlots(t.plusSeconds(2), 5, spacing));
        assertThat(PaceSlots.book(t.plusSeconds(4), 1, spacing, t, t.plusSeconds(3)))
                .isEqualTo(new PaceSlots(t.plusSeconds(4), 0, spacing));
        assertThat(PaceSlots.book(null, 5, spacing, t, t)).isEqualTo(new PaceSlots(t, 1, spacing));
    }
}
