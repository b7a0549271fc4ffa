package dev.redrive.core.consumer;

import java.time.Duration;
import java.util.Objects;

/**
 * The rule for an SQS event source's visibility timeout: at least {@value #FACTOR} times the function timeout plus the
 * event source's batching window (the AWS recommendation), or the messages of a slow invocation are delivered again
 * while it still runs. The IaC refuses a shorter one; the CLI's {@code backoff} warns about one it reads (without a
 * window, which it does not know).
 */
public final class VisibilityRule {

    /** How many function timeouts the visibility timeout covers at least. */
    public static final int FACTOR = 6;

    private VisibilityRule() {}

    /** The shortest visibility timeout allowed for {@code functionTimeout} without a batching window. */
    public static Duration minimum(Duration functionTimeout) {
        return minimum(functionTimeout, Duration.ZERO);
    }

    /** The shortest visibility timeout allowed for {@code functionTimeout} and a batching window. */
    public static Duration minimum(Duration functionTimeout, Duration batchingWindow) {
        return Objects.requireNonNull(functionTimeout, "functionTimeout")
                .multipliedBy(FACTOR)
                .plus(Objects.requireNonNull(batchingWindow, "batchingWindow"));
    }

    /** Whether {@code visibility} is long enough for {@code functionTimeout} without a batching window. */
    public static boolean holds(Duration visibility, Duration functionTimeout) {
        return holds(visibility, functionTimeout, Duration.ZERO);
    }

    /** Whether {@code visibility} is long enough for {@code functionTimeout} and a batching window. */
    public static boolean holds(Duration visibility, Duration functionTimeout, Duration batchingWindow) {
        return visibility.compareTo(minimum(functionTimeout, batchingWindow)) >= 0;
    }
}
