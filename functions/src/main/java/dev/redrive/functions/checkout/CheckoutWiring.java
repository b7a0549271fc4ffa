package dev.redrive.functions.checkout;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.CheckoutDeployment;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.EmailOutbox;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.functions.config.RedriveConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.s3.S3Client;

/** Builds the checkout example's consumers from configuration, as the checkout module describes them. */
@ApplicationScoped
public class CheckoutWiring {

    @Produces
    @Singleton
    EventSchemas eventSchemas() {
        return new EventSchemas();
    }

    @Produces
    @Singleton
    EmailOutbox emailOutbox(S3Client s3, RedriveConfig config, ObjectMapper json) {
        return new S3EmailOutbox(s3, config.checkout().emailOutboxBucket(), json);
    }

    @Produces
    @Singleton
    CheckoutDeployment checkoutDeployment(
            ObjectMapper json, EventSchemas schemas, EmailOutbox outbox, RedriveConfig config) {
        return CheckoutDeployment.of(json, schemas, outbox, config.checkout().revenueTable());
    }

    @Produces
    @Singleton
    RevenueAnalyticsConsumer revenueAnalyticsConsumer(CheckoutDeployment checkout) {
        return checkout.revenue();
    }

    @Produces
    @Singleton
    ConfirmationEmailConsumer confirmationEmailConsumer(CheckoutDeployment checkout) {
        return checkout.email();
    }
}
