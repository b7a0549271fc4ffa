package dev.redrive.cdk.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.cdk.function.FunctionArtifact;
import dev.redrive.cdk.function.FunctionFactory;
import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.cdk.function.PlaceholderAsset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;

/**
 * Each consumer's batch size, batching window and maximum concurrency, checked against Lambda's limits for an SQS
 * event source, and its reserved concurrency, which must cover the maximum concurrency.
 */
class ConsumerScalingTest {

    private static int apps;

    private static Stack newStack() {
        return new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/scaling-" + (++apps))
                        .build()),
                "Scaling");
    }

    private static IdempotentConsumerProps props(UnaryOperator<IdempotentConsumerProps.Builder> settings) {
        return settings.apply(IdempotentConsumerProps.builder("payments", "h")).build();
    }

    @Test
    void refusesWhatLambdaRefusesForAnSqsMappingNamingTheConsumerAndTheLimit() {
        assertThatThrownBy(() -> props(b -> b.batchSize(11)))
                .hasMessage("batchSize 11 of payments needs a maxBatchingWindow above 0 s (Lambda allows more than 10 "
                        + "only with a window)");
        assertThatThrownBy(() -> props(b -> b.batchSize(10_001).maxBatchingWindow(Duration.ofSeconds(1))))
                .hasMessage("batchSize of payments must be 1 to 10000, was 10001");
        assertThatThrownBy(() -> props(b -> b.batchSize(0)))
                .hasMessage("batchSize of payments must be 1 to 10000, was 0");
        assertThatThrownBy(() -> props(b -> b.maxBatchingWindow(Duration.ofSeconds(301))))
                .hasMessage("maxBatchingWindow of payments must be whole seconds from 0 to 300 s, was PT5M1S");
        assertThatThrownBy(() -> props(b -> b.maxBatchingWindow(Duration.ofMillis(1500))))
                .hasMessage("maxBatchingWindow of payments must be whole seconds from 0 to 300 s, was PT1.5S");
        assertThatThrownBy(() -> props(b -> b.maxConcurrency(1001)))
                .hasMessage("maxConcurrency of payments must be 2 to 1000, was 1001");

        IdempotentConsumerProps widest = props(b -> b.batchSize(10_000)
                .maxBatchingWindow(Duration.ofSeconds(300))
                .maxConcurrency(1000)
                .reservedConcurrency(1000));
        assertThat(List.of(
                        widest.batchSize(),
                        widest.maxConcurrency(),
                        widest.reservedConcurrency().orElseThrow()))
                .containsExactly(10_000, 1000, 1000);
    }

    @Test
    void aReservedConcurrencyBelowTheMaximumConcurrencyIsRefusedItWouldThrottleTheMapping() {
        assertThatThrownBy(() -> props(b -> b.maxConcurrency(5).reservedConcurrency(4)))
                .hasMessageStartingWith("reservedConcurrency 4 of payments is below its maxConcurrency 5: the queue's "
                        + "mapping would invoke more instances than the function may run");
        assertThat(props(b -> b.maxConcurrency(5).reservedConcurrency(5)).reservedConcurrency())
                .contains(5);
        assertThat(props(b -> b).reservedConcurrency()).as("none by default").isEmpty();
    }

    @Test
    void theScalingSettingsReachTheMappingAndTheFunction() {
        Stack stack = newStack();
        Key key = new Key(stack, "Key");
        Table claims = Table.Builder.create(stack, "Claims")
                .partitionKey(Attribute.builder()
                        .name("pk")
                        .type(AttributeType.STRING)
                        .build())
                .build();
        FunctionFactory functions = new FunctionFactory(
                FunctionArtifact.resolve(
                        Optional.empty(),
                        Path.of("target", "test-function-placeholder"),
                        FunctionRuntime.JVM,
                        Architecture.ARM_64),
                Architecture.ARM_64);
        new IdempotentConsumer(
                stack,
                "Payments",
                new ConsumerPlatform("shop", key, claims, functions),
                IdempotentConsumerProps.builder("payments", "payments")
                        .scaling(new ConsumerScaling(200, Duration.ofSeconds(2), 40, Optional.of(50)))
                        .build());
        Template template = Template.fromStack(stack);

        template.hasResourceProperties(
                "AWS::Lambda::EventSourceMapping",
                Map.of(
                        "BatchSize", 200,
                        "MaximumBatchingWindowInSeconds", 2,
                        "ScalingConfig", Map.of("MaximumConcurrency", 40)));
        template.hasResourceProperties(
                "AWS::Lambda::Function", Map.of("ReservedConcurrentExecutions", 50, "Runtime", "java21"));
    }

    /** A team's SQS queue and a Java function of its own, with the settings {@code function} gives it. */
    private record Team(Stack stack, Queue queue, Function function, Table claims) {
        static Team create(UnaryOperator<Function.Builder> function) {
            Stack stack = newStack();
            Queue dlq = Queue.Builder.create(stack, "OrdersDlq")
                    .queueName("orders-dlq")
                    .retentionPeriod(software.amazon.awscdk.Duration.days(14))
                    .build();
            Queue queue = Queue.Builder.create(stack, "Orders")
                    .queueName("orders")
                    .visibilityTimeout(software.amazon.awscdk.Duration.minutes(3))
                    .deadLetterQueue(DeadLetterQueue.builder()
                            .queue(dlq)
                            .maxReceiveCount(10)
                            .build())
                    .build();
            Function f = function.apply(Function.Builder.create(stack, "Receipts")
                            .runtime(Runtime.JAVA_21)
                            .handler("com.example.Receipts::handleRequest")
                            .code(Code.fromAsset(PlaceholderAsset.write(Path.of("target", "scaling-team-code"))
                                    .toString()))
                            .timeout(software.amazon.awscdk.Duration.seconds(30)))
                    .build();
            Table claims = Table.Builder.create(stack, "Claims")
                    .partitionKey(Attribute.builder()
                            .name("pk")
                            .type(AttributeType.STRING)
                            .build())
                    .build();
            return new Team(stack, queue, f, claims);
        }

        AttachedConsumer attach(IFunction target, int maxConcurrency) {
            return new AttachedConsumer(
                    stack,
                    "ReceiptsConsumer",
                    AttachedConsumerProps.builder("receipts", queue, target, claims)
                            .maxConcurrency(maxConcurrency)
                            .build());
        }
    }

    @Test
    void aTeamsSnapStartFunctionIsAttachedByItsAliasNeverUnqualified() {
        Team unqualified = Team.create(b -> b.snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS));
        assertThatThrownBy(() -> unqualified.attach(unqualified.function(), 5))
                .hasMessageStartingWith("the function of consumer receipts runs SnapStart on its published versions, "
                        + "but it is given unqualified, so its queue's mapping would invoke $LATEST");

        Team team = Team.create(b -> b.snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS));
        Alias live = Alias.Builder.create(team.stack(), "Live")
                .aliasName("live")
                .version(team.function().getCurrentVersion())
                .build();
        AttachedConsumer consumer = team.attach(live, 5);
        Template template = Template.fromStack(team.stack());

        String alias =
                template.findResources("AWS::Lambda::Alias").keySet().iterator().next();
        template.hasResourceProperties(
                "AWS::Lambda::EventSourceMapping",
                Map.of(
                        "FunctionName",
                        Map.of(
                                "Fn::Join",
                                List.of(
                                        "",
                                        List.of(
                                                Map.of(
                                                        "Fn::Select",
                                                        List.of(
                                                                6,
                                                                Map.of(
                                                                        "Fn::Split",
                                                                        List.of(":", Map.of("Ref", alias))))),
                                                ":live")))));
        assertThat(consumer.functionTimeout()).as("read through the alias").isEqualTo(Duration.ofSeconds(30));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "Environment",
                        Map.of(
                                "Variables",
                                Match.objectLike(Map.of(ConsumerEnvironment.CLAIMS_TABLE, Match.anyValue())))));
    }

    @Test
    void aTeamsFunctionWhoseReservedConcurrencyIsBelowTheMappingsMaximumIsRefused() {
        Team team = Team.create(b -> b.reservedConcurrentExecutions(3));

        assertThatThrownBy(() -> team.attach(team.function(), 5))
                .hasMessageStartingWith("the function of consumer receipts has a reserved concurrency of 3, below the "
                        + "maxConcurrency 5 of its queue's mapping");
        Team enough = Team.create(b -> b.reservedConcurrentExecutions(5));
        assertThat(enough.attach(enough.function(), 5).props().maxConcurrency()).isEqualTo(5);
    }
}
