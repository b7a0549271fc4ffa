package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.backoff.FullJitterBackoff;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffScheduleTest {

    final FullJitterBackoff backoff = new FullJitterBackoff(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(15));

    @Test
    void aDeadLetterQueueThatKeepsMessagesNoLongerThanItsSourceIsWarnedAbout() {
        BackoffSchedule schedule = new BackoffSchedule(
                backoff, 3, Duration.ofDays(4), Duration.ofSeconds(30), null, Duration.ofDays(4), null);

        assertThat(schedule.warnings())
                .singleElement()
                .asString()
                .startsWith("the DLQ keeps messages 4d, no longer than its source (4d)");
    }

    @Test
    void theWorstCaseTakesTheLongerOfACrashAndAFullTimeoutPlusTheCappedDelay() {
        BackoffSchedule schedule = new BackoffSchedule(
                backoff,
                12,
                Duration.ofDays(14),
                Duration.ofMinutes(3),
                Duration.ofSeconds(30),
                Duration.ofDays(14).plusSeconds(1),
                null);

        assertThat(schedule.attempts())
                .extracting(BackoffSchedule.Attempt::cappedSeconds)
                .startsWith(2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 900.0, 900.0);
        assertThat(schedule.attempts().get(0).worstCumulativeSeconds())
                .as("crash: the visibility timeout")
                .isEqualTo(180.0);
        assertThat(schedule.attempts().get(7).worstCumulativeSeconds()
                        - schedule.attempts().get(6).worstCumulativeSeconds())
                .as("30s timeout + 256s delay")
                .isEqualTo(286.0);
        assertThat(schedule.warnings()).isEmpty();
    }
}
