package dev.redrive.cdk.consumer;

import dev.redrive.cdk.function.IsoDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How long TRANSIENT failures keep a message out of its dead-letter queue, so that a dependency outage shorter than
 * that dead-letters nothing. After receive {@code n} fails, the consumer makes the message invisible for
 * {@code round(cap_n * rng())} seconds with {@code cap_n = min(maxDelay, base * multiplier^(n-1))} (full jitter, the
 * functions' backoff); the redrive policy moves it on the receive after the {@code maxReceiveCount}-th. The expected
 * window is therefore the sum of the caps over {@code maxReceiveCount} receives, halved (the mean of full jitter):
 * {@code sum_{n=1..maxReceiveCount} cap_n / 2}. Processing time and the event source's polling are left out, so the
 * real window is a little longer.
 *
 * <p>This is the one place the stack relates maxReceiveCount to the backoff. A circuit breaker that defers messages
 * while a dependency is down changes what a receive costs; it should extend this function, not duplicate it.
 */
public final class RetryWindow {

    /** The shortest expected window a consumer may have unless its stack opts out (a demo stack). */
    public static final Duration DEFAULT_MINIMUM = Duration.ofMinutes(15);

    /** The least maxReceiveCount AWS recommends for an SQS queue that triggers a Lambda event source mapping. */
    public static final int RECOMMENDED_MIN_RECEIVES = 5;

    private RetryWindow() {}

    /** The expected time from the first failed receive to the move to the DLQ, failing TRANSIENT every time. */
    public static Duration expected(int maxReceiveCount, BackoffSettings backoff) {
        double seconds = 0;
        for (int n = 1; n <= maxReceiveCount; n++) {
            seconds += capSeconds(n, backoff) / 2.0;
        }
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    /** {@code min(maxDelay, base * multiplier^(attempt-1))} in seconds, as the functions compute it. */
    static double capSeconds(int attempt, BackoffSettings backoff) {
        double exponential = backoff.base().toMillis() / 1000.0 * Math.pow(backoff.multiplier(), attempt - 1);
        return Math.min(backoff.maxDelay().toMillis() / 1000.0, exponential);
    }

    /**
     * What is wrong with {@code tuning} for production: fewer receives than AWS recommends, or an expected window
     * shorter than its minimum. Empty when nothing is.
     */
    public static List<String> problems(ConsumerTuning tuning) {
        List<String> problems = new ArrayList<>();
        int receives = tuning.maxReceiveCount();
        if (receives < RECOMMENDED_MIN_RECEIVES) {
            problems.add("maxReceiveCount " + receives + " is below " + RECOMMENDED_MIN_RECEIVES + ", the least AWS "
                    + "recommends for a queue that triggers a Lambda event source mapping (a throttled or dropped "
                    + "batch costs each of its messages a receive): set maxReceiveCount to " + RECOMMENDED_MIN_RECEIVES
                    + " or more");
        }
        Duration window = expected(receives, tuning.backoff());
        Duration minimum = tuning.minimumRetryWindow();
        if (window.compareTo(minimum) < 0) {
            problems.add("maxReceiveCount " + receives + " with backoff " + describe(tuning.backoff())
                    + " dead-letters a message that keeps failing TRANSIENT after about " + IsoDurations.format(window)
                    + " on average (half the sum of the backoff caps over " + receives + " receives), shorter than "
                    + "the minimum retry window " + IsoDurations.format(minimum) + ": a dependency outage longer than "
                    + "that dead-letters all its traffic. " + fix(tuning) + ", or lower the minimum retry window");
        }
        return problems;
    }

    private static String fix(ConsumerTuning tuning) {
        for (int receives = tuning.maxReceiveCount() + 1; receives <= 1000; receives++) {
            if (expected(receives, tuning.backoff()).compareTo(tuning.minimumRetryWindow()) >= 0) {
                return "Raise maxReceiveCount (maxReceiveCount " + receives + " gives about "
                        + IsoDurations.format(expected(receives, tuning.backoff()))
                        + " with this backoff) or the backoff's base or max delay";
            }
        }
        return "Raise the backoff's base or max delay";
    }

    private static String describe(BackoffSettings backoff) {
        return IsoDurations.format(backoff.base()) + " x" + backoff.multiplierText() + " up to "
                + IsoDurations.format(backoff.maxDelay());
    }
}
