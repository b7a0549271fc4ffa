package dev.redrive.cdk.consumer;

import java.time.Duration;
import java.util.Objects;

/**
 * Stack-wide tuning of the consumers, from CDK context: the function timeout (the visibility timeout follows at 6x),
 * the receives before a message is dead-lettered, and the backoff. The defaults suit production: with 10 receives and
 * the 2 s doubling backoff up to 15 min a message that keeps failing TRANSIENT stays out of the DLQ for about 16 min
 * on average ({@link RetryWindow}), so a quarter-hour outage dead-letters nothing. A local demo stack shortens them
 * (and opts out of the {@link RetryWindow} check) so an outage dead-letters in seconds.
 *
 * @param timeout            {@code consumerTimeout}: the consumers' function timeout (default PT30S)
 * @param maxReceiveCount    {@code maxReceiveCount}: receives before the redrive policy moves a message (default 10)
 * @param backoff            {@code backoffBase}, {@code backoffMultiplier}, {@code backoffMaxDelay}
 * @param minimumRetryWindow {@code minimumRetryWindow}: the shortest expected retry window the stack accepts
 *                           (default PT15M)
 */
public record ConsumerTuning(
        Duration timeout, int maxReceiveCount, BackoffSettings backoff, Duration minimumRetryWindow) {

    public static final ConsumerTuning DEFAULT =
            new ConsumerTuning(Duration.ofSeconds(30), 10, BackoffSettings.DEFAULT);

    public ConsumerTuning {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(minimumRetryWindow, "minimumRetryWindow");
    }

    /** Tuning with the default minimum retry window. */
    public ConsumerTuning(Duration timeout, int maxReceiveCount, BackoffSettings backoff) {
        this(timeout, maxReceiveCount, backoff, RetryWindow.DEFAULT_MINIMUM);
    }

    /** Applies the tuning to a consumer's settings. */
    public IdempotentConsumerProps.Builder applyTo(IdempotentConsumerProps.Builder builder) {
        return builder.timeout(timeout).maxReceiveCount(maxReceiveCount).backoff(backoff);
    }
}
