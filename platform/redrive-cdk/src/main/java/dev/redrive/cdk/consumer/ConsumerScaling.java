package dev.redrive.cdk.consumer;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How fast one consumer drains its queue, and what it may take from the account's concurrency: its event source
 * mapping's batch size, batching window and maximum concurrency, and its function's reserved concurrency. The
 * consumer's props check them, naming the consumer, as Lambda checks them; and the reserved concurrency must cover the
 * maximum concurrency, as AWS's guide on SQS scaling says, or the mapping's extra invocations are throttled and their
 * batches count receives towards the DLQ.
 *
 * <p>A rough ceiling of throughput: {@code maxConcurrency x batchSize / the time one batch takes}. At the defaults
 * (5 x 10 records) and 100 ms a batch, about 500 messages a second.
 *
 * @param batchSize           records per invocation (default 10; 1 to 10, up to 10,000 with a batching window)
 * @param maxBatchingWindow   how long Lambda gathers a batch (default 0 s; whole seconds up to 300 s)
 * @param maxConcurrency      the most concurrent invocations the queue drives (default 5; 2 to 1,000)
 * @param reservedConcurrency the function's reserved concurrency, at least {@code maxConcurrency}; empty (the
 *                            default): none
 */
public record ConsumerScaling(
        int batchSize, Duration maxBatchingWindow, int maxConcurrency, Optional<Integer> reservedConcurrency) {

    /** 10 records, no window, 5 at once, nothing reserved: the defaults of {@link IdempotentConsumerProps}. */
    public static final ConsumerScaling DEFAULT = new ConsumerScaling(10, Duration.ZERO, 5, Optional.empty());

    /** Checks that nothing is null ({@link IdempotentConsumerProps} checks the values, naming the consumer). */
    public ConsumerScaling {
        Objects.requireNonNull(maxBatchingWindow, "maxBatchingWindow");
        Objects.requireNonNull(reservedConcurrency, "reservedConcurrency");
    }

    /** These settings with {@code value} reserved for the function. */
    public ConsumerScaling withReservedConcurrency(int value) {
        return new ConsumerScaling(batchSize, maxBatchingWindow, maxConcurrency, Optional.of(value));
    }
}
