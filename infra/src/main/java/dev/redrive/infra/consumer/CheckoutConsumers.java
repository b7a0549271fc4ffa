package dev.redrive.infra.consumer;

import dev.redrive.core.names.RedriveNames.Handlers;
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
    public static CheckoutConsumers create(
            Construct scope,
            ConsumerPlatform platform,
            FunctionRuntime runtime,
            ConsumerTuning tuning,
            IBucket emailOutbox,
            ITable revenueTable) {
        IdempotentConsumer email = consumer(
                scope,
                "ConfirmationEmail",
                Handlers.CONFIRMATION_EMAIL,
                platform,
                runtime,
                tuning,
                ConsumerEnvironment.CHECKOUT_EMAIL_OUTBOX_BUCKET,
                emailOutbox.getBucketName(),
                PolicyStatement.Builder.create()
                        .sid("EmailOutboxPut")
                        // GetObject: a refused create-only write (412) is confirmed against the email already there
                        .actions(List.of("s3:PutObject", "s3:GetObject"))
                        .resources(List.of(emailOutbox.arnForObjects("*"))));
        IdempotentConsumer revenue = consumer(
                scope,
                "RevenueAnalytics",
                Handlers.REVENUE_ANALYTICS,
                platform,
                runtime,
                tuning,
                ConsumerEnvironment.CHECKOUT_REVENUE_TABLE,
                revenueTable.getTableName(),
                PolicyStatement.Builder.create()
                        .sid("RevenueCounters")
                        .actions(List.of("dynamodb:UpdateItem"))
                        .resources(List.of(revenueTable.getTableArn())));
        return new CheckoutConsumers(email, revenue);
    }

    /** A consumer whose handler has its name, told where its side effect goes and allowed only that. */
    private static IdempotentConsumer consumer(
            Construct scope,
            String id,
            String name,
            ConsumerPlatform platform,
            FunctionRuntime runtime,
            ConsumerTuning tuning,
            String targetVariable,
            String target,
            PolicyStatement.Builder effect) {
        IdempotentConsumer consumer = new IdempotentConsumer(
                scope,
                id,
                platform,
                tuning.applyTo(IdempotentConsumerProps.builder(name, name))
                        .runtime(runtime)
                        .environment(targetVariable, target)
                        .build());
        consumer.function().addToRolePolicy(effect.build());
        return consumer;
    }

    /** Both consumers. */
    public List<IdempotentConsumer> all() {
        return List.of(confirmationEmail, revenueAnalytics);
    }
}
