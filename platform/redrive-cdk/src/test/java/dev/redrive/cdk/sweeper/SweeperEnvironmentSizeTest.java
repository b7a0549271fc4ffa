package dev.redrive.cdk.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.cdk.TestContracts;
import dev.redrive.cdk.consumer.ConsumerPlatform;
import dev.redrive.cdk.consumer.IdempotentConsumer;
import dev.redrive.cdk.consumer.IdempotentConsumerProps;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Architecture;

/**
 * Lambda refuses a function whose environment variables exceed 4 KB in all; the sweeper's routes grow with every
 * consumer, so the synth bounds the environment with every generated name and ARN at its longest.
 */
class SweeperEnvironmentSizeTest {

    private static int apps;

    /** A stack with {@code count} consumers named {@code name-<i>} and their sweeper. */
    private static DlqSweeper sweeperOf(int count, String name) {
        Stack stack = new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/sweeper-size-" + (++apps))
                        .build()),
                "Redrive");
        Key key = new Key(stack, "DataKey");
        Tables tables = Tables.create(stack, key);
        FunctionFactory functions = new FunctionFactory(
                FunctionArtifact.resolve(
                        Optional.empty(),
                        Path.of("target", "test-function-placeholder"),
                        FunctionRuntime.JVM,
                        Architecture.X86_64),
                Architecture.X86_64);
        ConsumerPlatform platform = new ConsumerPlatform("redrive", key, tables.claims(), functions);
        List<IdempotentConsumer> consumers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String consumer = name + "-" + i;
            consumers.add(new IdempotentConsumer(
                    stack,
                    "Consumer" + i,
                    platform,
                    IdempotentConsumerProps.builder(consumer, consumer).build()));
        }
        return new DlqSweeper(
                stack,
                "Sweeper",
                new SweeperProps(
                        "redrive",
                        FunctionRuntime.JVM,
                        functions,
                        key,
                        tables,
                        Buckets.create(stack, key, 365).archive(),
                        consumers.stream()
                                .map(c -> new SweptConsumer(
                                        c,
                                        new DeclaredRoute(
                                                c.name(),
                                                c.sourceQueueName(),
                                                c.deadLetterQueueName(),
                                                Optional.of(TestContracts.orderPlaced(c.name())),
                                                Optional.empty())))
                                .toList(),
                        Duration.ofDays(7),
                        "rate(5 minutes)",
                        ReplayPace.DEFAULT));
    }

    @Test
    void twelveConsumersWithNamesAsLongAsTheExamplesFit() {
        assertThat(sweeperOf(12, "confirmation-email").function()).isNotNull();
    }

    @Test
    void aHundredConsumersFitTooSinceTheRoutesAreInS3() {
        DlqSweeper sweeper = sweeperOf(100, "confirmation-email");

        assertThat(sweeper.function()).isNotNull();
        assertThat(RoutesDocument.parse(sweeper.routesDocument()).routes()).hasSize(100);
    }
}
