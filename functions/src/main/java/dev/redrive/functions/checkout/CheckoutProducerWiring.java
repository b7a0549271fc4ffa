package dev.redrive.functions.checkout;

import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.HttpPaymentProvider;
import dev.redrive.checkout.placing.PaymentProvider;
import dev.redrive.functions.config.RedriveConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Builds the checkout (the producer of OrderPlaced) from configuration: its store, its payment provider. */
@ApplicationScoped
public class CheckoutProducerWiring {

    @Produces
    @Singleton
    CheckoutService checkoutService(DynamoDbClient dynamoDb, RedriveConfig config) {
        RedriveConfig.Checkout c = config.checkout();
        return new CheckoutService(
                new DynamoDbCheckoutStore(dynamoDb, c.ordersTable()),
                paymentProvider(c.payments()),
                new CheckoutService.Settings(c.payments().timeout(), c.leaseMargin(), c.retryAfter()));
    }

    private static PaymentProvider paymentProvider(RedriveConfig.Payments payments) {
        if (payments.url().isEmpty()) {
            return new PaymentProvider() {
                @Override
                public Outcome authorize(Authorization request, Duration timeout) {
                    return new Unavailable("no payment provider is configured (redrive.checkout.payments.url)");
                }

                @Override
                public boolean voidAuthorization(String idempotencyKey, Duration timeout) {
                    return false;
                }
            };
        }
        return new HttpPaymentProvider(URI.create(payments.url().get()), payments.connectTimeout());
    }
}
