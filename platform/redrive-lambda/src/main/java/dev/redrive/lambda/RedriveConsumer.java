package dev.redrive.lambda;

import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.IdempotentConsumer;
import java.time.Duration;
import java.util.Objects;

/**
 * A consumer bound to the machinery that runs it in a Lambda function: what {@link SqsConsumerHandler}'s constructor
 * takes. Build one with {@link Redrive}; a framework's wiring may build it from its own parts.
 *
 * @param consumer       the idempotent consumer (its name is part of every claim key)
 * @param batches        the batch processor: claims, backoff, dead letters, breakers
 * @param deadlineMargin kept back from the invocation's deadline for the queue calls and the response
 *                       ({@code REDRIVE_BATCH_DEADLINE_MARGIN})
 * @param metrics        where the batch's outcomes are counted, flushed at the end of every invocation
 */
public record RedriveConsumer(
        IdempotentConsumer<?> consumer, BatchProcessor batches, Duration deadlineMargin, ConsumerMetrics metrics) {

    public RedriveConsumer {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(batches, "batches");
        Objects.requireNonNull(deadlineMargin, "deadlineMargin");
        Objects.requireNonNull(metrics, "metrics");
    }
}
