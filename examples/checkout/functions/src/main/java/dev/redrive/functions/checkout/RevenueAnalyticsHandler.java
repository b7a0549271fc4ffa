package dev.redrive.functions.checkout;

import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.functions.lambda.IdempotentSqsHandler;
import dev.redrive.lambda.ConsumerMetrics;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/** Lambda handler {@value RevenueAnalyticsConsumer#NAME}: the daily revenue counter of {@code OrderPlaced}. */
@Named(RevenueAnalyticsConsumer.NAME)
@Singleton
public class RevenueAnalyticsHandler extends IdempotentSqsHandler {

    public RevenueAnalyticsHandler(
            BatchProcessor batches, RedriveConfig config, ConsumerMetrics metrics, RevenueAnalyticsConsumer consumer) {
        super(consumer, batches, config, metrics);
    }
}
