package dev.redrive.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.breaker.BreakerState.Status;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A history entry: one line of text, to the millisecond, one slot per token, and the log line the dashboard reads. */
class BreakerTransitionTest {

    static final Instant T0 = Instant.parse("2026-12-04T02:00:00.123456789Z");

    @Test
    void itsLogLineStartsWithTheMarkerTheDashboardFiltersOn() {
        BreakerTransition t = new BreakerTransition(3, T0, Status.HALF_OPEN, Status.OPEN, "the probe failed");

        assertThat(t.logLine("email-provider"))
                .isEqualTo("circuit breaker of email-provider: HALF_OPEN -> OPEN (token 3): the probe failed")
                .startsWith(BreakerTransition.LOG_MARKER);
    }

    @Test
    void itKeepsMillisecondsAsTheStoreDoes() {
        assertThat(new BreakerTransition(1, T0, Status.CLOSED, Status.OPEN, "down").at())
                .isEqualTo(Instant.parse("2026-12-04T02:00:00.123Z"));
    }

    @Test
    void tokensFillTheSlotsInTurn() {
        assertThat(new BreakerTransition(1, T0, Status.CLOSED, Status.OPEN, "a").slot())
                .isEqualTo(1);
        assertThat(new BreakerTransition(BreakerTransition.KEPT, T0, Status.CLOSED, Status.OPEN, "a").slot())
                .isZero();
        assertThat(new BreakerTransition(BreakerTransition.KEPT + 3, T0, Status.CLOSED, Status.OPEN, "a").slot())
                .isEqualTo(3);
    }

    @Test
    void aReasonIsOneLineOfTextAndATokenIsPositive() {
        assertThatThrownBy(() -> new BreakerTransition(1, T0, Status.CLOSED, Status.OPEN, "down\nforged line"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one line");
        assertThatThrownBy(() -> new BreakerTransition(1, T0, Status.CLOSED, Status.OPEN, " "))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BreakerTransition(0, T0, Status.CLOSED, Status.OPEN, "down"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 or more");
    }
}
