package dev.redrive.functions.testing;

import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.functions.metrics.ConsumerMetrics;
import dev.redrive.functions.lambda.IdempotentSqsHandler;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/** A handler for {@link CountingConsumer}, wired exactly like the production handlers. */
@Named("counting")
@Singleton
public class CountingHandler extends IdempotentSqsHandler {

    private final CountingConsumer consumer = new CountingConsumer();

    public CountingHandler(BatchProcessor batches, RedriveConfig config, ConsumerMetrics metrics) {
        super(batches, config, metrics);
    }

    public CountingConsumer counting() {
        return consumer;
    }

    @Override
    protected IdempotentConsumer<?> consumer() {
        return consumer;
    }
}
