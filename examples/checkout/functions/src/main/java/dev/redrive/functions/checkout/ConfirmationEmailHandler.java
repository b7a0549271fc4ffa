package dev.redrive.functions.checkout;

import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.functions.lambda.IdempotentSqsHandler;
import dev.redrive.lambda.ConsumerMetrics;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/** Lambda handler {@value ConfirmationEmailConsumer#NAME}: the confirmation email consumer of {@code OrderPlaced}. */
@Named(ConfirmationEmailConsumer.NAME)
@Singleton
public class ConfirmationEmailHandler extends IdempotentSqsHandler {

    public ConfirmationEmailHandler(
            BatchProcessor batches, RedriveConfig config, ConsumerMetrics metrics, ConfirmationEmailConsumer consumer) {
        super(consumer, batches, config, metrics);
    }
}
