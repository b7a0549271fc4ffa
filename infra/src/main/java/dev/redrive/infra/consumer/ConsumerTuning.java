package dev.redrive.infra.consumer;

import java.time.Duration;
import java.util.Objects;

/**
 * Stack-wide tuning of the consumers, from CDK context: the function timeout (the visibility timeout follows at 6x),
 * the receives before a message is dead-lettered, and the backoff. The defaults suit production; a local demo stack
 * shortens them so an outage dead-letters in seconds instead of minutes.
 *
 * @param timeout         {@code consumerTimeout}: the consumers' function timeout (default PT30S)
 * @param maxReceiveCount {@code maxReceiveCount}: receives before the redrive policy moves a message (default 5)
 * @param backoff         {@code backoffBase}, {@code backoffMultiplier}, {@code backoffMaxDelay}
 */
public record ConsumerTuning(Duration timeout, int maxReceiveCount, BackoffSettings backoff) {

    public static final ConsumerTuning DEFAULT = new ConsumerTuning(Duration.ofSeconds(30), 5, BackoffSettings.DEFAULT);

    public ConsumerTuning {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(backoff, "backoff");
    }

    /** Applies the tuning to a consumer's settings. */
    public IdempotentConsumerProps.Builder applyTo(IdempotentConsumerProps.Builder builder) {
        return builder.timeout(timeout).maxReceiveCount(maxReceiveCount).backoff(backoff);
    }
}
