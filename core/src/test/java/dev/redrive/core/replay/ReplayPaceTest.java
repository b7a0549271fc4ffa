package dev.redrive.core.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
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
