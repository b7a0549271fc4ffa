package dev.redrive.infra.consumer;

import dev.redrive.infra.function.FunctionRuntime;
import java.util.List;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.s3.IBucket;
import software.constructs.Construct;

/**
 * The checkout example's consumers of OrderPlaced: {@code confirmation-email} writes an email to the outbox bucket
 * (its external effect, keyed by the idempotency key), {@code revenue-analytics} adds to a revenue counter (its
 * effect is a DynamoDB write, so it goes in one transaction with the claim).
 *
 * @param confirmationEmail the email consumer
 * @param revenueAnalytics  the analytics consumer
 */
public record CheckoutConsumers(IdempotentConsumer confirmationEmail, IdempotentConsumer revenueAnalytics) {

    /** Creates both consumers in {@code scope} with the grants of their own side effects. */
    public static CheckoutConsumers create(Construct scope, ConsumerPlatform platform, FunctionRuntime runtime,
            IBucket emailOutbox, ITable revenueTable) {
        IdempotentConsumer email = new IdempotentConsumer(scope, "ConfirmationEmail", platform,
                IdempotentConsumerProps.builder("confirmation-email", "confirmation-email")
                        .runtime(runtime)
                        .environment(ConsumerEnvironment.CHECKOUT_EMAIL_OUTBOX_BUCKET, emailOutbox.getBucketName())
                        .build());
        email.function().addToRolePolicy(PolicyStatement.Builder.create()
                .sid("EmailOutboxPut")
                .actions(List.of("s3:PutObject"))
                .resources(List.of(emailOutbox.arnForObjects("*")))
                .build());

        IdempotentConsumer revenue = new IdempotentConsumer(scope, "RevenueAnalytics", platform,
                IdempotentConsumerProps.builder("revenue-analytics", "revenue-analytics")
                        .runtime(runtime)
                        .environment(ConsumerEnvironment.CHECKOUT_REVENUE_TABLE, revenueTable.getTableName())
                        .build());
        revenue.function().addToRolePolicy(PolicyStatement.Builder.create()
                .sid("RevenueCounters")
                .actions(List.of("dynamodb:UpdateItem"))
                .resources(List.of(revenueTable.getTableArn()))
                .build());
        return new CheckoutConsumers(email, revenue);
    }

    /** Both consumers. */
    public List<IdempotentConsumer> all() {
        return List.of(confirmationEmail, revenueAnalytics);
    }
}
