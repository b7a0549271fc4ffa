package dev.redrive.infra.checkout;

import dev.redrive.cdk.consumer.BreakerSettings;
import dev.redrive.cdk.consumer.ConsumerEnvironment;
import dev.redrive.cdk.consumer.ConsumerPlatform;
import dev.redrive.cdk.consumer.ConsumerScaling;
import dev.redrive.cdk.consumer.ConsumerTuning;
import dev.redrive.cdk.consumer.IdempotentConsumer;
import dev.redrive.cdk.consumer.IdempotentConsumerProps;
import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.core.names.RedriveNames.Dependencies;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.s3.IBucket;
import software.constructs.Construct;

/**
 * The checkout example's consumers of OrderPlaced: {@code confirmation-email} writes an email to the outbox bucket
 * (its external effect, keyed by the idempotency key; the mail provider's circuit breaker is one item of the control
 * table, the only item of it the consumer may read or write), {@code revenue-analytics} adds to a revenue counter (its
 * effect is a DynamoDB write, so it goes in one transaction with the claim).
 *
 * @param confirmationEmail the email consumer
 * @param revenueAnalytics  the analytics consumer
 */
public record CheckoutConsumers(IdempotentConsumer confirmationEmail, IdempotentConsumer revenueAnalytics) {

    /**
     * A breaker's actions: a consistent read, and a transition (with its history entry) as one conditional update. No
     * put, delete, scan.
     */
    public static final List<String> BREAKER_ACTIONS = List.of("dynamodb:GetItem", "dynamodb:UpdateItem");

    /** The confirmation-email consumer's outbox bucket. */
    public static final String EMAIL_OUTBOX_BUCKET = "REDRIVE_CHECKOUT_EMAIL_OUTBOX_BUCKET";

    /** The revenue-analytics consumer's counters table. */
    public static final String REVENUE_TABLE = "REDRIVE_CHECKOUT_REVENUE_TABLE";

    /**
     * Creates both consumers in {@code scope} with the grants of their own side effects, each scaled by its entry of
     * {@code scaling} (by consumer name; {@link ConsumerScaling#DEFAULT} without one).
     */
    public static CheckoutConsumers create(
            Construct scope,
            ConsumerPlatform platform,
            FunctionRuntime runtime,
            ConsumerTuning tuning,
            Map<String, ConsumerScaling> scaling,
            IBucket emailOutbox,
            ITable revenueTable,
            ITable controlTable,
            BreakerSettings breakers) {
        IdempotentConsumer email = consumer(
                scope,
                "ConfirmationEmail",
                CheckoutNames.CONFIRMATION_EMAIL,
                platform,
                runtime,
                tuning,
                scaling.getOrDefault(CheckoutNames.CONFIRMATION_EMAIL, ConsumerScaling.DEFAULT),
                EMAIL_OUTBOX_BUCKET,
                emailOutbox.getBucketName(),
                PolicyStatement.Builder.create()
                        .sid("EmailOutboxPut")
                        // GetObject: a refused create-only write (412) is confirmed against the email already there
                        .actions(List.of("s3:PutObject", "s3:GetObject"))
                        .resources(List.of(emailOutbox.arnForObjects("*"))));
        guardedByBreaker(email, CheckoutNames.EMAIL_PROVIDER, controlTable, breakers);
        IdempotentConsumer revenue = consumer(
                scope,
                "RevenueAnalytics",
                CheckoutNames.REVENUE_ANALYTICS,
                platform,
                runtime,
                tuning,
                scaling.getOrDefault(CheckoutNames.REVENUE_ANALYTICS, ConsumerScaling.DEFAULT),
                REVENUE_TABLE,
                revenueTable.getTableName(),
                PolicyStatement.Builder.create()
                        .sid("RevenueCounters")
                        .actions(List.of("dynamodb:UpdateItem"))
                        .resources(List.of(revenueTable.getTableArn())));
        return new CheckoutConsumers(email, revenue);
    }

    /**
     * Lets {@code consumer} share {@code dependency}'s circuit breaker: told the control table, it may read and write
     * (conditionally, on transitions) that breaker's item and no other item of the table.
     */
    private static void guardedByBreaker(
            IdempotentConsumer consumer, String dependency, ITable controlTable, BreakerSettings breakers) {
        consumer.function().addEnvironment(ConsumerEnvironment.BREAKERS_TABLE, controlTable.getTableName());
        breakers.environment(dependency).forEach(consumer.function()::addEnvironment);
        consumer.function()
                .addToRolePolicy(PolicyStatement.Builder.create()
                        .sid("CircuitBreakerOf" + dependency.replaceAll("[^A-Za-z0-9]", ""))
                        .actions(BREAKER_ACTIONS)
                        .resources(List.of(controlTable.getTableArn()))
                        .conditions(Map.of(
                                "ForAllValues:StringEquals",
                                Map.of("dynamodb:LeadingKeys", List.of(Dependencies.BREAKER_KEY_PREFIX + dependency))))
                        .build());
    }

    /** A consumer whose handler has its name, told where its side effect goes and allowed only that. */
    private static IdempotentConsumer consumer(
            Construct scope,
            String id,
            String name,
            ConsumerPlatform platform,
            FunctionRuntime runtime,
            ConsumerTuning tuning,
            ConsumerScaling scaling,
            String targetVariable,
            String target,
            PolicyStatement.Builder effect) {
        IdempotentConsumer consumer = new IdempotentConsumer(
                scope,
                id,
                platform,
                tuning.applyTo(IdempotentConsumerProps.builder(name, name))
                        .scaling(scaling)
                        .runtime(runtime)
                        .environment(targetVariable, target)
                        .build());
        consumer.function().addToRolePolicy(effect.build());
        return consumer;
    }

    /** The dependencies whose circuit breakers the consumers share (each alarms when it stays open). */
    public List<String> breakerDependencies() {
        return List.of(CheckoutNames.EMAIL_PROVIDER);
    }

    /** Both consumers. */
    public List<IdempotentConsumer> all() {
        return List.of(confirmationEmail, revenueAnalytics);
    }
}
