package dev.redrive.cdk.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The expected time TRANSIENT failures keep a message out of its DLQ, from maxReceiveCount and the backoff. */
class RetryWindowTest {

    @Test
    void isHalfTheSumOfTheBackoffCapsOverEveryReceive() {
        BackoffSettings backoff = new BackoffSettings(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(15));

        // caps 2, 4, 8, 16, 32 s; full jitter draws half a cap on average
        assertThat(RetryWindow.expected(5, backoff)).isEqualTo(Duration.ofSeconds(31));
        // caps 2 ... 512, then 900 (the max delay)
        assertThat(RetryWindow.expected(10, backoff)).isEqualTo(Duration.ofMillis(961_000));
        assertThat(RetryWindow.expected(12, backoff)).isEqualTo(Duration.ofMillis(1_861_000));
    }

    @Test
    void theDefaultsKeepAMessageOutOfTheDlqThroughAQuarterHourOutage() {
        ConsumerTuning defaults = ConsumerTuning.DEFAULT;

        assertThat(RetryWindow.expected(defaults.maxReceiveCount(), defaults.backoff()))
                .isGreaterThanOrEqualTo(RetryWindow.DEFAULT_MINIMUM)
                .isGreaterThanOrEqualTo(Duration.ofMinutes(15));
        assertThat(RetryWindow.problems(defaults)).isEmpty();
    }

    @Test
    void aShortWindowIsAProblemThatNamesTheWindowAndWhatReachesTheMinimum() {
        ConsumerTuning old = new ConsumerTuning(
                Duration.ofSeconds(30), 5, new BackoffSettings(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(15)));

        assertThat(RetryWindow.problems(old))
                .singleElement()
                .asString()
                .contains("maxReceiveCount 5")
                .contains("about PT31S")
                .contains("PT15M")
                .contains("maxReceiveCount 10")
                .contains("lower the minimum retry window")
                .doesNotContain("-c "); // CDK context is the stack's business: the example's stack names its keys
    }

    @Test
    void fewerThanFiveReceivesIsAProblemWhateverTheBackoff() {
        ConsumerTuning few = new ConsumerTuning(
                Duration.ofSeconds(30), 4, new BackoffSettings(Duration.ofMinutes(10), 2.0, Duration.ofHours(12)));

        assertThat(RetryWindow.expected(4, few.backoff())).isGreaterThan(Duration.ofMinutes(15));
        assertThat(RetryWindow.problems(few))
                .singleElement()
                .asString()
                .contains("maxReceiveCount 4 is below 5")
                .contains("event source mapping");
    }
}
