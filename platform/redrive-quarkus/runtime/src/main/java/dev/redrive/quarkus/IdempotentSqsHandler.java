package dev.redrive.quarkus;

import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.lambda.ConsumerMetrics;
import dev.redrive.lambda.RedriveConsumer;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.lambda.SqsConsumerHandler;
import java.util.Optional;

/**
 * The Quarkus side of an idempotent SQS consumer: {@code redrive-lambda}'s {@link SqsConsumerHandler} (partial batch
 * response, deadline and margin, never returning while an effect runs) with its parts from CDI, which this extension
 * produces. A subclass is a {@code @Named} CDI bean that hands its consumer to this constructor; the function's
 * {@code QUARKUS_LAMBDA_HANDLER} picks it:
 *
 * <pre>{@code
 * @Named("receipts")
 * @Singleton
 * public class ReceiptsHandler extends IdempotentSqsHandler {
 *     ReceiptsHandler(BatchProcessor batches, RedriveSettings settings, ConsumerMetrics metrics, Receipts receipts) {
 *         super(receipts, batches, settings, metrics);
 *     }
 * }
 * }</pre>
 *
 * <p>SnapStart priming runs every handler's event mapping before the snapshot, and {@link #primingMessage()} through
 * its consumer's parsing when the handler gives one.
 */
public abstract class IdempotentSqsHandler extends SqsConsumerHandler {

    private final IdempotentConsumer<?> consumer;

    /** A handler running {@code consumer} on the extension's batch processor, settings and metrics. */
    protected IdempotentSqsHandler(
            IdempotentConsumer<?> consumer, BatchProcessor batches, RedriveSettings settings, ConsumerMetrics metrics) {
        super(new RedriveConsumer(consumer, batches, settings.batch().deadlineMargin(), metrics));
        this.consumer = consumer;
    }

    /** The consumer this handler runs. */
    public IdempotentConsumer<?> consumer() {
        return consumer;
    }

    /**
     * A made-up message body (no real customer's data) that SnapStart priming parses with this handler's consumer
     * before the snapshot, so the classes its parsing and schema check load are in the snapshot; none by default.
     */
    public Optional<String> primingMessage() {
        return Optional.empty();
    }
}
