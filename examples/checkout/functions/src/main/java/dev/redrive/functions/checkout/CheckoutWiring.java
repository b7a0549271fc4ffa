package dev.redrive.functions.checkout;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.clients.EffectClients;
import dev.redrive.checkout.CheckoutDeployment;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.EmailOutbox;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.quarkus.ConsumerGuard;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import software.amazon.awssdk.services.s3.S3Client;

/** Builds the checkout example's consumers from configuration, as the checkout module describes them. */
@ApplicationScoped
public class CheckoutWiring {

    @Produces
    @Singleton
    EventSchemas eventSchemas() {
        return new EventSchemas();
    }

    /**
     * The mail provider's client: the application's S3 client's region, credentials and endpoint, with the retry rule
     * and timeouts of an effect ({@link EffectClients}), so the SQS redelivery with backoff is the one retry layer.
     */
    @Produces
    @Singleton
    @Identifier(ConfirmationEmailConsumer.DEPENDENCY)
    S3Client mailProviderClient(
            S3Client s3,
            RedriveSettings settings,
            @ConfigProperty(name = "quarkus.s3.path-style-access", defaultValue = "false") boolean pathStyle) {
        return EffectClients.s3Like(s3, pathStyle, settings.effects());
    }

    @Produces
    @Singleton
    EmailOutbox emailOutbox(
            @Identifier(ConfirmationEmailConsumer.DEPENDENCY) S3Client mailProvider,
            CheckoutConfig config,
            ObjectMapper json) {
        return new S3EmailOutbox(mailProvider, config.checkout().emailOutboxBucket(), json);
    }

    /**
     * The circuit breaker in front of the mail provider guards the confirmation email's effect: the Redrive extension
     * builds it (one per sandbox, its state shared with every other sandbox through the control table).
     */
    @Produces
    @Singleton
    ConsumerGuard mailProviderGuard() {
        return new ConsumerGuard(ConfirmationEmailConsumer.NAME, ConfirmationEmailConsumer.DEPENDENCY);
    }

    @Produces
    @Singleton
    CheckoutDeployment checkoutDeployment(
            ObjectMapper json, EventSchemas schemas, EmailOutbox outbox, CheckoutConfig config) {
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
