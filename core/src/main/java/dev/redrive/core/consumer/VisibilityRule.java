package dev.redrive.core.consumer;

import java.time.Duration;
import java.util.Objects;

/**
 * The rule for an SQS event source's visibility timeout: at least {@value #FACTOR} times the function timeout (the AWS
 * recommendation), or the messages of a slow invocation are delivered again while it still runs. The IaC refuses a
 * shorter one; the CLI's {@code backoff} warns about one it reads.
 */
public final class VisibilityRule {

    /** How many function timeouts the visibility timeout covers at least. */
    public static final int FACTOR = 6;

    private VisibilityRule() {}

    /** The shortest visibility timeout allowed for {@code functionTimeout}. */
    public static Duration minimum(Duration functionTimeout) {
        return Objects.requireNonNull(functionTimeout, "functionTimeout").multipliedBy(FACTOR);
    }

    /** Whether {@code visibility} is long enough for {@code functionTimeout}. */
    public static boolean holds(Duration visibility, Duration functionTimeout) {
        return visibility.compareTo(minimum(functionTimeout)) >= 0;
    }
}
