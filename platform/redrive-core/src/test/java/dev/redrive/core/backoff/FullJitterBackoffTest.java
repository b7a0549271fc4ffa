package dev.redrive.core.backoff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FullJitterBackoffTest {

    private final FullJitterBackoff backoff = new FullJitterBackoff(Duration.ofSeconds(2), 2.0, Duration.ofSeconds(60));

    @Test
    void theCapGrowsExponentiallyUntilMaxDelay() {
        double[] caps = new double[8];
        for (int attempt = 1; attempt <= 8; attempt++) {
            caps[attempt - 1] = backoff.cappedSeconds(attempt);
        }
        assertThat(caps).containsExactly(2, 4, 8, 16, 32, 60, 60, 60);
    }

    @Test
    void theDelayIsTheRoundedProductOfTheCapAndOneDraw() {
        Mulberry32 draws = new Mulberry32(42);
        Mulberry32 sameDraws = new Mulberry32(42);
        for (int attempt = 1; attempt <= 10; attempt++) {
            double r = sameDraws.nextDouble();
            long expected = Math.round(Math.min(60.0, 2.0 * Math.pow(2.0, attempt - 1)) * r);
            assertThat(backoff.delaySeconds(attempt, draws))
                    .as("attempt %d", attempt)
                    .isEqualTo(expected);
        }
    }

    @Test
    void fullJitterSpansTheWholeWindow() {
        assertThat(backoff.delaySeconds(3, () -> 0.0)).isZero();
        assertThat(backoff.delaySeconds(3, () -> 0.999999)).isEqualTo(8);
        assertThat(backoff.delaySeconds(3, () -> 0.5)).isEqualTo(4);
        assertThat(backoff.expectedSeconds(3)).isEqualTo(4.0);
    }

    @Test
    void aRandomSourceOutsideTheUnitIntervalIsRefused() {
        assertThatThrownBy(() -> backoff.delaySeconds(1, () -> 1.0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void settingsOutsideWhatSqsAcceptsAreRefused() {
        assertThatThrownBy(() -> new FullJitterBackoff(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(10)))
                .hasMessageContaining("multiplier");
        assertThatThrownBy(() -> new FullJitterBackoff(Duration.ofSeconds(1), 2, Duration.ofHours(13)))
                .hasMessageContaining("12h");
        assertThatThrownBy(() -> new FullJitterBackoff(Duration.ZERO, 2, Duration.ofSeconds(10)))
                .hasMessageContaining("base");
        assertThatThrownBy(() -> backoff.cappedSeconds(0)).hasMessageContaining("attempts start at 1");
    }
}
