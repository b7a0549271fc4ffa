package dev.redrive.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A sandbox's own count of a dependency's outcomes, which decides when it trips the shared breaker: on consecutive
 * TRANSIENT failures, or on a failure rate over a window of recent calls. Kept in memory: the healthy path writes
 * nothing.
 */
class FailureTrackerTest {

    static BreakerPolicy policy(int consecutive, double rate, int window) {
        return new BreakerPolicy(
                consecutive, rate, window, Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofSeconds(10));
    }

    @Test
    void opensOnTheConsecutiveFailureThatReachesTheThreshold() {
        FailureTracker tracker = new FailureTracker(policy(3, 1.0, 10));

        assertThat(tracker.transientFailure()).isFalse();
        assertThat(tracker.transientFailure()).isFalse();
        assertThat(tracker.transientFailure()).isTrue();
    }

    @Test
    void anAnswerInBetweenStartsTheConsecutiveCountAgain() {
        FailureTracker tracker = new FailureTracker(policy(3, 1.0, 10));

        tracker.transientFailure();
        tracker.transientFailure();
        tracker.answered();

        assertThat(tracker.transientFailure()).isFalse();
        assertThat(tracker.transientFailure()).isFalse();
        assertThat(tracker.transientFailure()).isTrue();
    }

    @Test
    void opensOnAFailureRateOverAFullWindowEvenWithoutARunOfFailures() {
        FailureTracker tracker = new FailureTracker(policy(100, 0.5, 6));
        boolean opened = false;
        // failure, answer, failure, answer, failure: 3 of 5, but the window (6) is not full yet
        for (int i = 0; i < 5; i++) {
            opened = i % 2 == 0 ? tracker.transientFailure() : answered(tracker);
        }
        assertThat(opened).isFalse();

        assertThat(tracker.transientFailure())
                .as("4 of the last 6 failed: over 0.5")
                .isTrue();
    }

    @Test
    void theRateIsOverTheWindowOnlyOldOutcomesLeaveIt() {
        FailureTracker tracker = new FailureTracker(policy(100, 0.5, 4));
        tracker.transientFailure();
        tracker.transientFailure();
        answered(tracker);
        answered(tracker);
        answered(tracker); // window: F A A A

        assertThat(tracker.transientFailure()).as("window A A A F: 1 of 4").isFalse();
        assertThat(tracker.transientFailure())
                .as("window A A F F: 2 of 4, not over 0.5")
                .isFalse();
        assertThat(tracker.transientFailure()).as("window A F F F: 3 of 4").isTrue();
    }

    @Test
    void resettingAfterTheBreakerClosesForgetsThePast() {
        FailureTracker tracker = new FailureTracker(policy(2, 1.0, 10));
        tracker.transientFailure();

        tracker.reset();

        assertThat(tracker.transientFailure()).isFalse();
    }

    private static boolean answered(FailureTracker tracker) {
        tracker.answered();
        return false;
    }
}
