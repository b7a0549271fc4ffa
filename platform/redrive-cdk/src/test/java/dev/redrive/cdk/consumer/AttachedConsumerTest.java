package dev.redrive.cdk.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.Queue;

/**
 * A team's own queue and function, of any runtime, attached as a Redrive consumer: what is read from them, what is
 * attached, and every rule that refuses an attachment, with its message.
 */
class AttachedConsumerTest {

    private static int apps;

    /** A stack with the claims table, a team's queue with its DLQ, and a Node.js function: none of them Redrive's. */
    private static final class TeamStack {
        final Stack stack = new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/attached-" + (++apps))
                        .build()),
                "Team");
        final Table claims = Table.Builder.create(stack, "Claims")
                .partitionKey(Attribute.builder()
                        .name("pk")
                        .type(AttributeType.STRING)
                        .build())
                .encryption(TableEncryption.CUSTOMER_MANAGED)
                .build();
        Queue deadLetters;
        Queue queue;
        Function function;

        TeamStack(Duration visibility, Duration sourceRetention, Duration deadLetterRetention, int receives) {
            deadLetters = Queue.Builder.create(stack, "OrdersDlq")
                    .queueName("orders-dlq")
                    .retentionPeriod(software.amazon.awscdk.Duration.seconds(deadLetterRetention.toSeconds()))
                    .build();
            queue = Queue.Builder.create(stack, "Orders")
                    .queueName("orders")
                    .visibilityTimeout(software.amazon.awscdk.Duration.seconds(visibility.toSeconds()))
                    .retentionPeriod(software.amazon.awscdk.Duration.seconds(sourceRetention.toSeconds()))
                    .deadLetterQueue(DeadLetterQueue.builder()
                            .queue(deadLetters)
                            .maxReceiveCount(receives)
                            .build())
                    .build();
            function = Function.Builder.create(stack, "Receipts")
                    .runtime(Runtime.NODEJS_20_X)
                    .handler("index.handler")
                    .code(Code.fromInline("exports.handler = async () => ({batchItemFailures: []});"))
                    .timeout(software.amazon.awscdk.Duration.seconds(20))
                    .build();
        }

        TeamStack() {
            this(Duration.ofMinutes(2), Duration.ofDays(4), Duration.ofDays(14), 10);
        }

        private int attachments;

        AttachedConsumer attach(UnaryOperator<AttachedConsumerProps.Builder> settings) {
            return new AttachedConsumer(
                    stack,
                    "ReceiptsConsumer" + (++attachments),
                    settings.apply(AttachedConsumerProps.builder("receipts", queue, function, claims))
                            .build());
        }
    }

    @Test
    void readsTheQueueAndFunctionDefinedInTheAppAndAttachesTheMappingTheGrantsAndTheEnvironment() {
        TeamStack team = new TeamStack();
        AttachedConsumer consumer = team.attach(b -> b.batchSize(5).batchConcurrency(3));

        assertThat(consumer.sourceQueueName()).isEqualTo("orders");
        assertThat(consumer.deadLetterQueueName()).isEqualTo("orders-dlq");
        assertThat(consumer.deadLetterQueue()).isSameAs(team.deadLetters);
        assertThat(consumer.maxReceiveCount()).isEqualTo(10);
        assertThat(consumer.functionTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(consumer.visibilityTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(consumer.sourceRetention()).isEqualTo(Duration.ofDays(4));
        assertThat(consumer.deadLetterRetention()).isEqualTo(Duration.ofDays(14));

        Template template = Template.fromStack(team.stack);
        template.resourceCountIs("AWS::SQS::Queue", 2); // the team's own: nothing created
        template.resourceCountIs("AWS::Lambda::Function", 1);
        template.hasResourceProperties(
                "AWS::Lambda::EventSourceMapping",
                Map.of(
                        "FunctionResponseTypes", List.of("ReportBatchItemFailures"),
                        "BatchSize", 5,
                        "ScalingConfig", Map.of("MaximumConcurrency", 5)));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "Runtime",
                        "nodejs20.x",
                        "Environment",
                        Map.of(
                                "Variables",
                                Match.objectLike(Map.of(
                                        "REDRIVE_BATCH_CONCURRENCY", "3",
                                        "REDRIVE_BATCH_MAX_RECEIVE_COUNT", "10",
                                        "REDRIVE_BACKOFF_BASE", "PT2S",
                                        "REDRIVE_CLAIMS_TABLE", Match.anyValue(),
                                        "REDRIVE_DEAD_LETTERS_QUEUE_URL", Match.anyValue())))));
        String policies = template.findResources("AWS::IAM::Policy").toString();
        assertThat(policies)
                .contains("dynamodb:ConditionCheckItem")
                .contains("sqs:SendMessage")
                .contains("kms:Decrypt") // the claims table's own key
                .doesNotContain("dynamodb:Scan")
                .doesNotContain("dynamodb:DeleteItem");
        assertThat(consumer.environment()).containsKeys("REDRIVE_CLAIMS_TABLE", "REDRIVE_DEAD_LETTERS_QUEUE_URL");
        assertThat(consumer.environment())
                .as("no build version named: the function records its published version")
                .doesNotContainKey("REDRIVE_BUILD_VERSION");
    }

    @Test
    void aBuildVersionNamedInThePropsIsSetOnTheFunction() {
        TeamStack team = new TeamStack();
        AttachedConsumer consumer = team.attach(b -> b.buildVersion("v42"));

        assertThat(consumer.environment()).containsEntry("REDRIVE_BUILD_VERSION", "v42");
        Template.fromStack(team.stack)
                .hasResourceProperties(
                        "AWS::Lambda::Function",
                        Map.of(
                                "Environment",
                                Map.of("Variables", Match.objectLike(Map.of("REDRIVE_BUILD_VERSION", "v42")))));
    }

    @Test
    void aQueueWithoutARedrivePolicyIsRefused() {
        TeamStack team = new TeamStack();
        Queue bare = Queue.Builder.create(team.stack, "Bare").queueName("bare").build();

        assertThatThrownBy(() -> new AttachedConsumer(
                        team.stack,
                        "BareConsumer",
                        AttachedConsumerProps.builder("bare", bare, team.function, team.claims)
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the dead-letter queue of consumer bare is unknown")
                .hasMessageContaining("no redrive policy");
    }

    @Test
    void aVisibilityTimeoutShorterThanSixFunctionTimeoutsAndTheWindowIsRefused() {
        TeamStack team = new TeamStack(Duration.ofSeconds(120), Duration.ofDays(4), Duration.ofDays(14), 10);

        assertThatThrownBy(() -> team.attach(b -> b.maxBatchingWindow(Duration.ofSeconds(5))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("visibility timeout PT2M of the queue orders (consumer receipts)")
                .hasMessageContaining("6 x the function timeout PT20S + the batching window PT5S = PT2M5S");
    }

    @Test
    void aDeadLetterQueueThatKeepsMessagesNoLongerThanItsSourceIsRefused() {
        TeamStack team = new TeamStack(Duration.ofMinutes(2), Duration.ofDays(4), Duration.ofDays(4), 10);

        assertThatThrownBy(() -> team.attach(b -> b))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the dead-letter queue orders-dlq keeps messages P4D, not longer than its "
                        + "source orders (P4D)");
    }

    @Test
    void aRetryWindowShorterThanTheMinimumIsRefusedUnlessTheMinimumIsZero() {
        TeamStack team = new TeamStack(Duration.ofMinutes(2), Duration.ofDays(4), Duration.ofDays(14), 3);

        assertThatThrownBy(() -> team.attach(b -> b))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("consumer receipts: maxReceiveCount 3 is below 5")
                .hasMessageContaining("minimumRetryWindow(Duration.ZERO)");
        assertThat(team.attach(b -> b.minimumRetryWindow(Duration.ZERO)).maxReceiveCount())
                .isEqualTo(3);
    }

    @Test
    void aDeclaredSettingThatContradictsTheAppsOwnDefinitionIsRefused() {
        TeamStack team = new TeamStack();

        assertThatThrownBy(() -> team.attach(b -> b.functionTimeout(Duration.ofSeconds(30))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the function timeout of consumer receipts is declared as PT30S, but the app's "
                        + "own definition says PT20S");
    }

    @Test
    void anImportedQueueAndFunctionNeedTheirSettingsDeclaredAndTheEnvironmentIsLeftToTheTeamWithAWarning() {
        TeamStack team = new TeamStack();
        IQueue imported = Queue.fromQueueArn(team.stack, "Imported", "arn:aws:sqs:eu-west-1:123456789012:payments");
        IQueue importedDlq =
                Queue.fromQueueArn(team.stack, "ImportedDlq", "arn:aws:sqs:eu-west-1:123456789012:payments-dlq");
        IFunction function = Function.fromFunctionArn(
                team.stack, "ImportedFunction", "arn:aws:lambda:eu-west-1:123456789012:function:payments");

        assertThatThrownBy(() -> new AttachedConsumer(
                        team.stack,
                        "Undeclared",
                        AttachedConsumerProps.builder("payments", imported, function, team.claims)
                                .deadLetterQueue(importedDlq, 10)
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the function timeout of consumer payments is unknown: the function is imported");

        AttachedConsumer consumer = new AttachedConsumer(
                team.stack,
                "Payments",
                AttachedConsumerProps.builder("payments", imported, function, team.claims)
                        .deadLetterQueue(importedDlq, 10)
                        .functionTimeout(Duration.ofSeconds(10))
                        .visibilityTimeout(Duration.ofMinutes(1))
                        .retention(Duration.ofDays(4), Duration.ofDays(14))
                        .build());

        assertThat(consumer.sourceQueueName()).isEqualTo("payments");
        assertThat(consumer.deadLetterQueueName()).isEqualTo("payments-dlq");
        Annotations.fromStack(team.stack)
                .hasWarning(
                        "/Team/Payments",
                        Match.stringLikeRegexp(".*is imported, so its environment cannot be set here: set "
                                + "REDRIVE_BACKOFF_BASE, .*REDRIVE_CLAIMS_TABLE.*"));
        Annotations.fromStack(team.stack)
                .hasWarning(
                        "/Team/Payments",
                        Match.stringLikeRegexp(".*imported without its role, so nothing can be granted to it here: "
                                + "grant it .*dynamodb:ConditionCheckItem.*sqs:SendMessage on payments-dlq.*"));
        Template.fromStack(team.stack)
                .hasResourceProperties(
                        "AWS::Lambda::EventSourceMapping",
                        Map.of(
                                "FunctionName",
                                "payments",
                                "EventSourceArn",
                                "arn:aws:sqs:eu-west-1:123456789012:payments"));
    }

    @Test
    void aQueueWhoseNameIsOnlyKnownAtDeployIsRefused() {
        TeamStack team = new TeamStack();
        Queue unnamedDlq = Queue.Builder.create(team.stack, "UnnamedDlq")
                .retentionPeriod(software.amazon.awscdk.Duration.days(14))
                .build();
        Queue unnamed = Queue.Builder.create(team.stack, "Unnamed")
                .visibilityTimeout(software.amazon.awscdk.Duration.minutes(2))
                .deadLetterQueue(DeadLetterQueue.builder()
                        .queue(unnamedDlq)
                        .maxReceiveCount(10)
                        .build())
                .build();

        assertThatThrownBy(() -> new AttachedConsumer(
                        team.stack,
                        "UnnamedConsumer",
                        AttachedConsumerProps.builder("unnamed", unnamed, team.function, team.claims)
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the queue of consumer unnamed has no name known before deploy");
    }

    @Test
    void aConsumerNameThatCannotBeAClaimKeyPrefixIsRefused() {
        TeamStack team = new TeamStack();

        assertThatThrownBy(() -> AttachedConsumerProps.builder("Receipts#1", team.queue, team.function, team.claims)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("consumer name 'Receipts#1' must be 1 to 40 lower-case letters");
    }
}
