package dev.redrive.functions.outbox;

import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.OutboxRelay;
import dev.redrive.checkout.placing.SqsOutboxPublisher;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.lambda.EmfOutput;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;

/** Builds the outbox relay from configuration: the orders table's outbox (its bean), the subscriber queues. */
@ApplicationScoped
public class OutboxWiring {

    @Produces
    @Singleton
    OutboxRelay outboxRelay(DynamoDbCheckoutStore orders, SqsClient sqs, QueueDirectory queues, CheckoutConfig config) {
        List<String> subscribers = config.checkout()
                .outbox()
                .subscriberQueues()
                .orElseThrow(() -> new IllegalStateException("the outbox relay needs its subscriber queues: set "
                        + "redrive.checkout.outbox.subscriber-queues (REDRIVE_CHECKOUT_OUTBOX_SUBSCRIBER_QUEUES)"));
        return new OutboxRelay(
                orders,
                new SqsOutboxPublisher(
                        sqs, subscribers.stream().map(queues::url).toList()));
    }

    @Produces
    @Singleton
    OutboxMetrics outboxMetrics() {
        return new OutboxMetrics(EmfOutput.stdout());
    }
}
