package dev.redrive.functions.testing;

import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.lambda.ConsumerMetrics;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.quarkus.IdempotentSqsHandler;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/** A handler for {@link CountingConsumer}, wired exactly like the production handlers. */
@Named("counting")
@Singleton
public class CountingHandler extends IdempotentSqsHandler {

    private final CountingConsumer consumer;

    @Inject
    public CountingHandler(BatchProcessor batches, RedriveSettings config, ConsumerMetrics metrics) {
        this(new CountingConsumer(), batches, config, metrics);
    }

    private CountingHandler(
            CountingConsumer consumer, BatchProcessor batches, RedriveSettings config, ConsumerMetrics metrics) {
        super(consumer, batches, config, metrics);
        this.consumer = consumer;
    }

    public CountingConsumer counting() {
        return consumer;
    }
}
