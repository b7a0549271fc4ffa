package dev.redrive.functions.checkout;

import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.GhostReconciliation;
import dev.redrive.checkout.placing.HttpPaymentProvider;
import dev.redrive.checkout.placing.IndexShards;
import dev.redrive.checkout.placing.OrderRetention;
import dev.redrive.checkout.placing.PaymentProvider;
import dev.redrive.functions.config.CheckoutConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Builds the checkout (the producer of OrderPlaced) from configuration: its store, its payment provider. */
@ApplicationScoped
public class CheckoutProducerWiring {

    /** The orders table: the checkout's attempts, stock, orders and outbox (the relay reads the same table). */
    @Produces
    @Singleton
    DynamoDbCheckoutStore ordersTable(DynamoDbClient dynamoDb, CheckoutConfig config) {
        CheckoutConfig.Checkout c = config.checkout();
        return new DynamoDbCheckoutStore(
                dynamoDb,
                c.ordersTable(),
                indexShards(c),
                OrderRetention.of(c.attemptRetention(), c.publishedEventRetention()),
                Clock.systemUTC());
    }

    /** The index shards configured; a draining count below the count is refused, naming both settings. */
    static IndexShards indexShards(CheckoutConfig.Checkout checkout) {
        int count = checkout.indexShards();
        return new IndexShards(count, checkout.indexShardsDraining().orElse(count));
    }

    @Produces
    @Singleton
    PaymentProvider paymentProvider(CheckoutConfig config) {
        return paymentProvider(config.checkout().payments());
    }

    @Produces
    @Singleton
    CheckoutService checkoutService(DynamoDbCheckoutStore orders, PaymentProvider payments, CheckoutConfig config) {
        CheckoutConfig.Checkout c = config.checkout();
        return new CheckoutService(
                orders,
                payments,
                new CheckoutService.Settings(c.payments().timeout(), c.leaseMargin(), c.retryAfter()));
    }

    @Produces
    @Singleton
    GhostReconciliation ghostReconciliation(
            DynamoDbCheckoutStore orders, PaymentProvider payments, CheckoutConfig config) {
        CheckoutConfig.Checkout c = config.checkout();
        return new GhostReconciliation(
                orders, payments, c.reconciliation().grace(), c.payments().timeout());
    }

    private static PaymentProvider paymentProvider(CheckoutConfig.Payments payments) {
        if (payments.url().isEmpty()) {
            return new PaymentProvider() {
                @Override
                public Outcome authorize(Authorization request, Duration timeout) {
                    return new Unavailable("no payment provider is configured (redrive.checkout.payments.url)");
                }

                @Override
                public VoidOutcome voidAuthorization(String idempotencyKey, Duration timeout) {
                    return new VoidFailed("no payment provider is configured (redrive.checkout.payments.url)");
                }
            };
        }
        return new HttpPaymentProvider(URI.create(payments.url().get()), payments.connectTimeout());
    }
}
