package dev.redrive.cdk.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.cdk.function.FunctionArtifact;
import dev.redrive.cdk.function.FunctionFactory;
import dev.redrive.cdk.function.FunctionRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
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
import software.amazon.awscdk.services.lambda.Architecture;

/** The construct on its own, with settings other than the stack's. */
class IdempotentConsumerConstructTest {

    private static Template template;

    @BeforeAll
    static void synthesize() {
        Stack stack = new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/consumer-only")
                        .build()),
                "ConsumerOnly");
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
                        Architecture.X86_64),
                Architecture.X86_64);
        new IdempotentConsumer(
                stack,
                "Payments",
                new ConsumerPlatform("shop", key, claims, functions),
                IdempotentConsumerProps.builder("payments", "payments-handler")
                        .runtime(FunctionRuntime.JVM)
                        .maxReceiveCount(3)
                        .timeout(Duration.ofSeconds(60))
                        .memoryMb(2048)
                        .batchSize(50)
                        .maxBatchingWindow(Duration.ofSeconds(5))
                        .maxConcurrency(2)
                        .batchConcurrency(4)
                        .backoff(new BackoffSettings(Duration.ofMillis(500), 3.0, Duration.ofMinutes(2)))
                        .environment("EXTRA", "yes")
                        .buildVersion("2026.12.06-abc123")
                        .build());
        template = Template.fromStack(stack);
    }

    @Test
    void queuesCarryTheirSettings() {
        template.hasResourceProperties(
                "AWS::SQS::Queue",
                Map.of(
                        "QueueName",
                        "shop-payments",
                        "VisibilityTimeout",
                        365, // 6 x 60 s + the 5 s batching window
                        "RedrivePolicy",
                        Map.of("maxReceiveCount", 3, "deadLetterTargetArn", Match.anyValue())));
        template.hasResourceProperties(
                "AWS::SQS::Queue", Map.of("QueueName", "shop-payments-dlq", "MessageRetentionPeriod", 1209600));
    }

    @Test
    void theMappingAndTheFunctionCarryTheirSettings() {
        template.hasResourceProperties(
                "AWS::Lambda::EventSourceMapping",
                Map.of(
                        "BatchSize",
                        50,
                        "MaximumBatchingWindowInSeconds",
                        5,
                        "ScalingConfig",
                        Map.of("MaximumConcurrency", 2),
                        "FunctionResponseTypes",
                        List.of("ReportBatchItemFailures")));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "Runtime",
                        "java21",
                        "Handler",
                        "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest",
                        "Architectures",
                        List.of("x86_64"),
                        "MemorySize",
                        2048,
                        "Timeout",
                        60,
                        "Environment",
                        Map.of(
                                "Variables",
                                Match.objectLike(Map.of(
                                        "QUARKUS_LAMBDA_HANDLER", "payments-handler",
                                        "REDRIVE_BACKOFF_BASE", "PT0.5S",
                                        "REDRIVE_BACKOFF_MULTIPLIER", "3.0",
                                        "REDRIVE_BACKOFF_MAX_DELAY", "PT2M",
                                        "REDRIVE_BATCH_CONCURRENCY", "4",
                                        "REDRIVE_BUILD_VERSION", "2026.12.06-abc123",
                                        "EXTRA", "yes")))));
        assertThat(template.findResources(
                        "AWS::Lambda::Function",
                        Map.of(
                                "Properties",
                                Map.of(
                                        "Environment",
                                        Map.of(
                                                "Variables",
                                                Match.objectLike(Map.of("DISABLE_SIGNAL_HANDLERS", "true")))))))
                .isEmpty();
    }

    @Test
    void theDeadLetterQueueAdmitsRedrivesOnlyFromTheSourceNamedWithThePrefix() {
        template.hasResourceProperties(
                "AWS::SQS::Queue",
                Map.of(
                        "QueueName",
                        "shop-payments-dlq",
                        "RedriveAllowPolicy",
                        Map.of(
                                "redrivePermission",
                                "byQueue",
                                "sourceQueueArns",
                                List.of(Map.of("Fn::Join", List.of("", Match.arrayWith(List.of(":shop-payments"))))))));
        assertThat(template.findResources("AWS::SQS::Queue")).hasSize(2);
    }
}
