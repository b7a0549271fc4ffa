package dev.redrive.cdk.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.cdk.function.FunctionArtifact;
import dev.redrive.cdk.function.FunctionFactory;
import dev.redrive.cdk.function.FunctionRuntime;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;

/**
 * An SNS topic or an EventBridge rule feeding a consumer's KMS-encrypted queue: without both the queue policy and the
 * key policy admitting the service for that source, its deliveries are lost silently.
 */
class QueueProducersTest {

    private static Map<String, Object> template;
    private static Stack stack;
    private static ConsumerPlatform platform;

    @BeforeAll
    static void synthesize() {
        stack = new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/queue-producers")
                        .build()),
                "Producers");
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
        platform = new ConsumerPlatform("shop", key, claims, functions);
        IdempotentConsumer consumer = new IdempotentConsumer(
                stack,
                "Payments",
                platform,
                IdempotentConsumerProps.builder("payments", "payments").build());
        Topic topic = new Topic(stack, "Orders");
        Rule rule = Rule.Builder.create(stack, "Shipped")
                .eventPattern(
                        EventPattern.builder().source(List.of("shop.shipping")).build())
                .build();
        consumer.admitSnsTopic(topic);
        consumer.admitEventBridgeRule(rule);
        template = Template.fromStack(stack).toJSON();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> statements(String type) {
        return ((Map<String, Object>) template.get("Resources"))
                .values().stream()
                        .map(r -> (Map<String, Object>) r)
                        .filter(r -> type.equals(r.get("Type")))
                        .flatMap(r -> {
                            Map<String, Object> props = (Map<String, Object>) r.get("Properties");
                            Map<String, Object> doc =
                                    (Map<String, Object>) props.getOrDefault("PolicyDocument", props.get("KeyPolicy"));
                            return ((List<Map<String, Object>>) doc.get("Statement")).stream();
                        })
                        .toList();
    }

    private static Map<String, Object> logicalRef(String prefix) {
        return Map.of("Ref", idStartingWith(prefix));
    }

    @SuppressWarnings("unchecked")
    private static String idStartingWith(String prefix) {
        return ((Map<String, Object>) template.get("Resources"))
                .keySet().stream()
                        .filter(id -> id.startsWith(prefix))
                        .findFirst()
                        .orElseThrow();
    }

    @Test
    void theQueuePolicyAdmitsEachServiceForItsOwnSourceOnly() {
        String queue = idStartingWith("PaymentsQueue");
        assertThat(statements("AWS::SQS::QueuePolicy"))
                .contains(
                        Map.of(
                                "Effect", "Allow",
                                "Principal", Map.of("Service", "sns.amazonaws.com"),
                                "Action", "sqs:SendMessage",
                                "Resource", Map.of("Fn::GetAtt", List.of(queue, "Arn")),
                                "Condition", Map.of("ArnEquals", Map.of("aws:SourceArn", logicalRef("Orders")))),
                        Map.of(
                                "Effect", "Allow",
                                "Principal", Map.of("Service", "events.amazonaws.com"),
                                "Action", "sqs:SendMessage",
                                "Resource", Map.of("Fn::GetAtt", List.of(queue, "Arn")),
                                "Condition",
                                        Map.of(
                                                "ArnEquals",
                                                Map.of(
                                                        "aws:SourceArn",
                                                        Map.of(
                                                                "Fn::GetAtt",
                                                                List.of(idStartingWith("Shipped"), "Arn"))))));
    }

    @Test
    void theKeyPolicyLetsEachServiceEncryptForItsOwnSourceOnly() {
        assertThat(statements("AWS::KMS::Key"))
                .contains(
                        Map.of(
                                "Effect", "Allow",
                                "Principal", Map.of("Service", "sns.amazonaws.com"),
                                "Action", List.of("kms:GenerateDataKey*", "kms:Decrypt"),
                                "Resource", "*",
                                "Condition", Map.of("ArnEquals", Map.of("aws:SourceArn", logicalRef("Orders")))),
                        Map.of(
                                "Effect", "Allow",
                                "Principal", Map.of("Service", "events.amazonaws.com"),
                                "Action", List.of("kms:GenerateDataKey*", "kms:Decrypt"),
                                "Resource", "*",
                                "Condition",
                                        Map.of(
                                                "ArnEquals",
                                                Map.of(
                                                        "aws:SourceArn",
                                                        Map.of(
                                                                "Fn::GetAtt",
                                                                List.of(idStartingWith("Shipped"), "Arn"))))));
    }

    @Test
    void anImportedQueueIsRefusedNamingWhatToAllowWhereItIsDefined() {
        var dlq = Queue.fromQueueArn(stack, "ImportedDlq", "arn:aws:sqs:eu-west-1:123456789012:team-dlq");
        AttachedConsumer attached = new AttachedConsumer(
                stack,
                "Attached",
                AttachedConsumerProps.builder(
                                "team",
                                Queue.fromQueueArn(stack, "Imported", "arn:aws:sqs:eu-west-1:123456789012:team"),
                                Function.fromFunctionArn(
                                        stack, "Fn", "arn:aws:lambda:eu-west-1:123456789012:function:team"),
                                platform.claimsTable())
                        .deadLetterQueue(dlq, 10)
                        .visibilityTimeout(java.time.Duration.ofMinutes(10))
                        .retention(java.time.Duration.ofDays(4), java.time.Duration.ofDays(14))
                        .functionTimeout(java.time.Duration.ofSeconds(30))
                        .build());

        assertThatThrownBy(() -> attached.admitSnsTopic(new Topic(stack, "Other")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the source queue team of consumer team is imported, so its queue policy "
                        + "cannot be changed here: allow sqs:SendMessage to sns.amazonaws.com with aws:SourceArn");
    }
}
