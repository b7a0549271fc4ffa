package dev.redrive.functions.lambda;

import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.lambda.ConsumerMetrics;
import dev.redrive.lambda.RedriveConsumer;
import dev.redrive.lambda.SqsConsumerHandler;

/**
 * The Quarkus side of an idempotent SQS consumer: {@code redrive-lambda}'s {@link SqsConsumerHandler} (partial batch
 * response, deadline and margin, never returning while an effect runs) with its parts from CDI. A subclass is a
 * {@code @Named} CDI bean that hands its consumer to this constructor; the IaC picks it per function with
 * {@code QUARKUS_LAMBDA_HANDLER}.
 */
public abstract class IdempotentSqsHandler extends SqsConsumerHandler {

    /** A handler running {@code consumer}. */
    protected IdempotentSqsHandler(
            IdempotentConsumer<?> consumer, BatchProcessor batches, RedriveConfig config, ConsumerMetrics metrics) {
        super(new RedriveConsumer(consumer, batches, config.batch().deadlineMargin(), metrics));
    }
}
