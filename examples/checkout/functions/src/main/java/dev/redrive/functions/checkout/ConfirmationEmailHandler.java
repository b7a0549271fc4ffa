package dev.redrive.functions.checkout;

import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.functions.lambda.CheckoutPriming;
import dev.redrive.lambda.ConsumerMetrics;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.quarkus.IdempotentSqsHandler;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Optional;

/** Lambda handler {@value ConfirmationEmailConsumer#NAME}: the confirmation email consumer of {@code OrderPlaced}. */
@Named(ConfirmationEmailConsumer.NAME)
@Singleton
public class ConfirmationEmailHandler extends IdempotentSqsHandler {

    public ConfirmationEmailHandler(
            BatchProcessor batches,
            RedriveSettings settings,
            ConsumerMetrics metrics,
            ConfirmationEmailConsumer consumer) {
        super(consumer, batches, settings, metrics);
    }

    /** A made-up order, parsed and schema-checked by SnapStart priming before the snapshot. */
    @Override
    public Optional<String> primingMessage() {
        return Optional.of(CheckoutPriming.ORDER);
    }
}
