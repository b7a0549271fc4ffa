package dev.redrive.cdk.sweeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.cdk.TestContracts;
import dev.redrive.cdk.consumer.AttachedConsumer;
import dev.redrive.cdk.consumer.AttachedConsumerProps;
import dev.redrive.cdk.function.FunctionArtifact;
import dev.redrive.cdk.function.FunctionFactory;
import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.cdk.storage.Buckets;
import dev.redrive.cdk.storage.Tables;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.schema.DeclaredRoute;
import dev.redrive.schema.RoutesDocument;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;

/** The sweeper serves a team's attached consumer by its route, and refuses a route that does not match it. */
class SweptConsumerTest {

    @Test
    void theSweeperDrainsAnAttachedConsumersDeadLetterQueueAndReplaysToItsQueueByItsRoute() {
        Stack stack = new Stack(
                new App(AppProps.builder().outdir("target/test-cdk.out/swept").build()), "Team");
        Key key = new Key(stack, "DataKey");
        Tables tables = Tables.create(stack, key);
        AttachedConsumer consumer = attached(stack, tables);
        FunctionFactory functions = new FunctionFactory(
                FunctionArtifact.resolve(
                        Optional.empty(),
                        Path.of("target", "test-function-placeholder"),
                        FunctionRuntime.JVM,
                        Architecture.X86_64),
                Architecture.X86_64);
        DeclaredRoute route = new DeclaredRoute(
                "receipts",
                "receipts",
                "receipts-dlq",
                Optional.of(TestContracts.orderPlaced("receipts")),
                Optional.empty());

        DlqSweeper sweeper = new DlqSweeper(
                stack,
                "Sweeper",
                new SweeperProps(
                        "team",
                        FunctionRuntime.JVM,
                        functions,
                        key,
                        tables,
                        Buckets.create(stack, key, 365).archive(),
                        List.of(new SweptConsumer(consumer, route)),
                        Duration.ofDays(7),
                        "rate(5 minutes)",
                        ReplayPace.DEFAULT));

        assertThat(RoutesDocument.parse(sweeper.routesDocument()).route("receipts"))
                .hasValueSatisfying(r -> {
                    assertThat(r.sourceQueue()).isEqualTo("receipts");
                    assertThat(r.deadLetterQueue()).isEqualTo("receipts-dlq");
                    assertThat(r.contract()).isPresent();
                });
        String sweeperPolicy = Template.fromStack(stack).findResources("AWS::IAM::Policy").entrySet().stream()
                .filter(e -> e.getKey().startsWith("SweeperFunction"))
                .map(e -> e.getValue().toString())
                .findFirst()
                .orElseThrow();
        assertThat(sweeperPolicy)
                .contains("sqs:ReceiveMessage") // its DLQ
                .contains("sqs:SendMessage") // its source queue
                .contains("ReceiptsDlq")
                .contains("Receipts");
    }

    @Test
    void aRouteThatNamesOtherQueuesOrAnotherConsumerIsRefused() {
        Stack stack = new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/swept-refused")
                        .build()),
                "Team");
        AttachedConsumer consumer = attached(stack, Tables.create(stack, new Key(stack, "DataKey")));

        assertThatThrownBy(() -> new SweptConsumer(
                        consumer,
                        new DeclaredRoute("receipts", "orders", "receipts-dlq", Optional.empty(), Optional.empty())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names the queues orders and receipts-dlq, but the consumer's are receipts and "
                        + "receipts-dlq");
        assertThatThrownBy(() -> new SweptConsumer(
                        consumer,
                        new DeclaredRoute("invoices", "receipts", "receipts-dlq", Optional.empty(), Optional.empty())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the route of consumer receipts names the consumer invoices");
    }

    private static AttachedConsumer attached(Stack stack, Tables tables) {
        Queue deadLetters = Queue.Builder.create(stack, "ReceiptsDlq")
                .queueName("receipts-dlq")
                .retentionPeriod(software.amazon.awscdk.Duration.days(14))
                .build();
        Queue queue = Queue.Builder.create(stack, "Receipts")
                .queueName("receipts")
                .visibilityTimeout(software.amazon.awscdk.Duration.minutes(3))
                .deadLetterQueue(DeadLetterQueue.builder()
                        .queue(deadLetters)
                        .maxReceiveCount(10)
                        .build())
                .build();
        Function function = Function.Builder.create(stack, "ReceiptsFunction")
                .runtime(Runtime.PYTHON_3_12)
                .handler("index.handler")
                .code(Code.fromInline("def handler(event, context):\n    return {'batchItemFailures': []}\n"))
                .timeout(software.amazon.awscdk.Duration.seconds(30))
                .build();
        return new AttachedConsumer(
                stack,
                "ReceiptsConsumer",
                AttachedConsumerProps.builder("receipts", queue, function, tables.claims())
                        .build());
    }
}
