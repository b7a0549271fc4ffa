package dev.redrive.functions.checkout;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.EmailOutbox;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlacedReader;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.functions.config.RedriveConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.s3.S3Client;

/** Builds the checkout example's consumers from configuration. */
@ApplicationScoped
public class CheckoutWiring {

    @Produces
    @Singleton
    EventSchemas eventSchemas() {
        return new EventSchemas();
    }

    @Produces
    @Singleton
    OrderPlacedReader orderPlacedReader(ObjectMapper json, EventSchemas schemas) {
        return new OrderPlacedReader(json, schemas);
    }

    @Produces
    @Singleton
    EmailOutbox emailOutbox(S3Client s3, RedriveConfig config, ObjectMapper json) {
        return new S3EmailOutbox(s3, config.checkout().emailOutboxBucket(), json);
    }

    @Produces
    @Singleton
    RevenueAnalyticsConsumer revenueAnalyticsConsumer(OrderPlacedReader reader, RedriveConfig config) {
        return new RevenueAnalyticsConsumer(reader, config.checkout().revenueTable());
    }

    @Produces
    @Singleton
    ConfirmationEmailConsumer confirmationEmailConsumer(OrderPlacedReader reader, EmailOutbox outbox) {
        return new ConfirmationEmailConsumer(reader, outbox);
    }
}
