package dev.redrive.cdk.function;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.cdk.RedrivePlatform;
import dev.redrive.cdk.TestContracts;
import dev.redrive.cdk.consumer.ConsumerPlatform;
import dev.redrive.cdk.consumer.IdempotentConsumer;
import dev.redrive.cdk.consumer.IdempotentConsumerProps;
import dev.redrive.cdk.sweeper.SweeperCode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;

/**
 * SnapStart on the JVM functions: a published version with SnapStart, the alias {@value FunctionFactory#LIVE_ALIAS}
 * on it, and every trigger on the alias (SnapStart never applies to {@code $LATEST}); the native runtime unchanged.
 */
class ColdStartTest {

    @TempDir
    Path tmp;

    private static int apps;

    private static Stack stack() {
        return new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/cold-start-" + (++apps))
                        .build()),
                "ColdStart");
    }

    private static Template consumerOf(FunctionRuntime runtime, Architecture architecture) {
        Stack stack = stack();
        Key key = new Key(stack, "Key");
        Table claims = Table.Builder.create(stack, "Claims")
                .partitionKey(Attribute.builder()
                        .name("pk")
                        .type(AttributeType.STRING)
                        .build())
                .build();
        FunctionFactory functions = new FunctionFactory(
                FunctionArtifact.resolve(
                        Optional.empty(), Path.of("target", "test-function-placeholder"), runtime, architecture),
                architecture);
        new IdempotentConsumer(
                stack,
                "Payments",
                new ConsumerPlatform("shop", key, claims, functions),
                IdempotentConsumerProps.builder("payments", "payments-handler")
                        .runtime(runtime)
                        .build());
        return Template.fromStack(stack);
    }

    private static String onlyId(Template template, String type) {
        Map<String, Map<String, Object>> found = template.findResources(type);
        assertThat(found).as(type).hasSize(1);
        return found.keySet().iterator().next();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(Template template, String type) {
        return (Map<String, Object>)
                template.findResources(type).values().iterator().next().get("Properties");
    }

    /**
     * How CDK names an alias where a function name is expected (a mapping's {@code FunctionName}): the function name
     * taken from the alias's ARN, and the alias's name; so the mapping depends on the alias, and invokes it.
     */
    static Map<String, Object> qualifiedName(String alias) {
        return Map.of(
                "Fn::Join",
                List.of(
                        "",
                        List.of(
                                Map.of(
                                        "Fn::Select",
                                        List.of(6, Map.of("Fn::Split", List.of(":", Map.of("Ref", alias))))),
                                ":" + FunctionFactory.LIVE_ALIAS)));
    }

    /** The qualifier taken from the alias's ARN. */
    static Map<String, Object> qualifierOf(String alias) {
        return Map.of("Fn::Select", List.of(7, Map.of("Fn::Split", List.of(":", Map.of("Ref", alias)))));
    }

    @Test
    void aJvmConsumerRunsSnapStartOnAPublishedVersionAndItsQueueInvokesTheLiveAlias() {
        Template template = consumerOf(FunctionRuntime.JVM, Architecture.ARM_64);

        String function = onlyId(template, "AWS::Lambda::Function");
        assertThat(properties(template, "AWS::Lambda::Function"))
                .containsEntry("SnapStart", Map.of("ApplyOn", "PublishedVersions"))
                .containsEntry("Architectures", List.of("arm64"));
        String version = onlyId(template, "AWS::Lambda::Version");
        assertThat(properties(template, "AWS::Lambda::Version")).containsEntry("FunctionName", Map.of("Ref", function));
        String alias = onlyId(template, "AWS::Lambda::Alias");
        assertThat(properties(template, "AWS::Lambda::Alias"))
                .containsEntry("Name", FunctionFactory.LIVE_ALIAS)
                .containsEntry("FunctionName", Map.of("Ref", function))
                .containsEntry("FunctionVersion", Map.of("Fn::GetAtt", List.of(version, "Version")));
        assertThat(properties(template, "AWS::Lambda::EventSourceMapping"))
                .as("the mapping invokes the alias, never $LATEST (which SnapStart never applies to)")
                .containsEntry("FunctionName", qualifiedName(alias));
    }

    @Test
    void aNativeConsumerIsUnchangedNoSnapStartNoVersionItsQueueInvokesTheFunction() {
        Template template = consumerOf(FunctionRuntime.NATIVE, Architecture.X86_64);

        String function = onlyId(template, "AWS::Lambda::Function");
        assertThat(properties(template, "AWS::Lambda::Function"))
                .as("SnapStart does not support OS-only runtimes such as provided.al2023")
                .doesNotContainKey("SnapStart");
        template.resourceCountIs("AWS::Lambda::Version", 0);
        template.resourceCountIs("AWS::Lambda::Alias", 0);
        assertThat(properties(template, "AWS::Lambda::EventSourceMapping"))
                .containsEntry("FunctionName", Map.of("Ref", function));
    }

    private Path sweeperJar() throws IOException {
        Path jar = tmp.resolve("sweeper.jar");
        try (OutputStream out = Files.newOutputStream(jar);
                ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("dev/redrive/sweeper/DeadLetterSweeperHandler.class"));
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("software/amazon/awssdk/services/dynamodb/DynamoDbClient.class"));
            zip.closeEntry();
        }
        return jar;
    }

    @Test
    @SuppressWarnings("unchecked")
    void thePlatformsSweeperRunsOnArm64WithSnapStartAndItsScheduleAndAsyncSettingsAreTheAliass() throws IOException {
        Stack stack = stack();
        Queue dlq = Queue.Builder.create(stack, "OrdersDlq")
                .queueName("orders-dlq")
                .retentionPeriod(software.amazon.awscdk.Duration.days(14))
                .build();
        Queue queue = Queue.Builder.create(stack, "Orders")
                .queueName("orders")
                .visibilityTimeout(software.amazon.awscdk.Duration.minutes(3))
                .deadLetterQueue(
                        DeadLetterQueue.builder().queue(dlq).maxReceiveCount(10).build())
                .build();
        Function receipts = Function.Builder.create(stack, "Receipts")
                .runtime(Runtime.JAVA_21)
                .handler("com.example.Receipts::handleRequest")
                .code(Code.fromAsset(sweeperJar().toString()))
                .timeout(software.amazon.awscdk.Duration.seconds(30))
                .build();
        RedrivePlatform.Builder.create(stack, "Redrive")
                .consumer("receipts", queue, receipts, TestContracts.orderPlaced("receipts"))
                .sweeperCode(SweeperCode.fromJar(sweeperJar()))
                .build();
        Template template = Template.fromStack(stack);

        Map<String, Map<String, Object>> sweepers = template.findResources(
                "AWS::Lambda::Function", Map.of("Properties", Map.of("Handler", SweeperCode.HANDLER)));
        assertThat(sweepers).hasSize(1);
        String sweeper = sweepers.keySet().iterator().next();
        Map<String, Object> props = (Map<String, Object>) sweepers.get(sweeper).get("Properties");
        assertThat(props)
                .containsEntry("SnapStart", Map.of("ApplyOn", "PublishedVersions"))
                .containsEntry("Architectures", List.of("arm64"));
        Map<String, Map<String, Object>> aliases = template.findResources(
                "AWS::Lambda::Alias", Map.of("Properties", Map.of("FunctionName", Map.of("Ref", sweeper))));
        assertThat(aliases).hasSize(1);
        String alias = aliases.keySet().iterator().next();
        Map<String, Object> schedule = properties(template, "AWS::Scheduler::Schedule");
        assertThat(((Map<String, Object>) schedule.get("Target")).get("Arn"))
                .as("the schedule invokes the alias")
                .isEqualTo(Map.of("Ref", alias));
        Map<String, Object> async = properties(template, "AWS::Lambda::EventInvokeConfig");
        assertThat(async)
                .as("async settings are per qualifier: they must be the alias's, which the schedule invokes")
                .containsEntry("FunctionName", Map.of("Ref", sweeper))
                .containsEntry("Qualifier", qualifierOf(alias))
                .containsEntry("MaximumRetryAttempts", 0);
    }
}
