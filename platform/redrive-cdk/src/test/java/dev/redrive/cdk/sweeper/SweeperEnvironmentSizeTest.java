package dev.redrive.cdk.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.cdk.TestContracts;
import dev.redrive.cdk.consumer.ConsumerPlatform;
import dev.redrive.cdk.consumer.IIdempotentConsumer;
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
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.Queue;

/**
 * Lambda refuses a function whose environment variables exceed 4 KB in all; the sweeper's routes grow with every
 * consumer, so the synth bounds the environment with every generated name and ARN at its longest.
 *
 * <p>Twelve consumers are built as {@link IdempotentConsumer}s (queues, function, mapping each). The hundred are
 * declared by what the sweeper reads of a consumer ({@link IIdempotentConsumer}: its name and its two queues,
 * imported), since building a hundred functions through jsii took 23 to 44 s and changes nothing the sweeper sees. To
 * build the hundred as {@link IdempotentConsumer}s too (a measure of the synth at that size):
 * {@code -Dredrive.test.sweeperSize.builtConsumers=true}.
 */
class SweeperEnvironmentSizeTest {

    /** System property: {@code true} builds every consumer of the size tests as an {@link IdempotentConsumer}. */
    static final String BUILT_CONSUMERS = "redrive.test.sweeperSize.builtConsumers";

    private static int apps;

    /** A stack with {@code count} consumers named {@code name-<i>}, built as {@link IdempotentConsumer}s, and their sweeper. */
    private static DlqSweeper sweeperOf(int count, String name) {
        return sweeperOf(count, name, true);
    }

    /**
     * A stack with {@code count} consumers named {@code name-<i>} and their sweeper; the consumers are built as
     * {@link IdempotentConsumer}s when {@code built}, else declared by their name and imported queues.
     */
    private static DlqSweeper sweeperOf(int count, String name, boolean built) {
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
        List<IIdempotentConsumer> consumers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String consumer = name + "-" + i;
            consumers.add(
                    built
                            ? new IdempotentConsumer(
                                    stack,
                                    "Consumer" + i,
                                    platform,
                                    IdempotentConsumerProps.builder(consumer, consumer)
                                            .build())
                            : DeclaredConsumer.of(stack, consumer));
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
        DlqSweeper sweeper = sweeperOf(100, "confirmation-email", Boolean.getBoolean(BUILT_CONSUMERS));

        assertThat(sweeper.function()).isNotNull();
        assertThat(RoutesDocument.parse(sweeper.routesDocument()).routes()).hasSize(100);
    }

    /**
     * A consumer as the sweeper reads it: its name, its queues (imported by ARN, named as an {@link IdempotentConsumer}
     * names them) and their retentions. The sweeper never reads a consumer's function.
     */
    private record DeclaredConsumer(String name, IQueue sourceQueue, IQueue deadLetterQueue)
            implements IIdempotentConsumer {

        static DeclaredConsumer of(Stack stack, String name) {
            String arn = "arn:aws:sqs:eu-west-1:111122223333:";
            return new DeclaredConsumer(
                    name,
                    Queue.fromQueueArn(stack, name + "-queue", arn + name),
                    Queue.fromQueueArn(stack, name + "-dlq", arn + name + IdempotentConsumer.DEAD_LETTER_SUFFIX));
        }

        @Override
        public String sourceQueueName() {
            return name;
        }

        @Override
        public String deadLetterQueueName() {
            return name + IdempotentConsumer.DEAD_LETTER_SUFFIX;
        }

        @Override
        public Duration sourceRetention() {
            return Duration.ofDays(4);
        }

        @Override
        public Duration deadLetterRetention() {
            return Duration.ofDays(14);
        }

        @Override
        public IFunction function() {
            throw new UnsupportedOperationException("the sweeper does not read a consumer's function");
        }
    }
}
