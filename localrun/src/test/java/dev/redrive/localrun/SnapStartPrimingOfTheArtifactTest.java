package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.eventsource.SqsEvents;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.localrun.lambda.SandboxExit;
import dev.redrive.localrun.lambda.SandboxSpec;
import dev.redrive.localrun.scenario.OrderTraffic;
import dev.redrive.localstack.LocalAws;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The packaged artifact, started as SnapStart initializes a version of the email function: its priming hook (registered
 * with org.crac, which the {@code java21} runtime's flags route to the runtime interface client) runs in the init, and
 * the function's counting proxies see no AWS call before its first event. Then it handles that event as usual.
 */
class SnapStartPrimingOfTheArtifactTest {

    @Test
    void theArtifactPrimesItselfInASnapStartInitWithoutCallingAwsThenHandlesItsFirstEvent() throws Exception {
        LocalAws aws = LocalAws.shared();
        aws.reset();
        Path work = Files.createDirectories(Path.of("target", "snapstart-priming-test"));
        RunOptions options = new RunOptions(
                "basic",
                0,
                0,
                0,
                0,
                1,
                Optional.empty(),
                LocalRunFixture.demoTemplate(),
                LocalRunFixture.packagedFunctions(),
                1,
                6,
                Files.createTempDirectory(work, "run-"),
                20261205L,
                Optional.empty(),
                false);
        List<SandboxExit> exits = new CopyOnWriteArrayList<>();
        try (LocalSystem system = LocalSystem.provisioned(options, new Progress(System.out), aws, false)) {
            SandboxSpec email = system.sandboxSpec(LocalSystem.EMAIL);
            Map<String, String> env = new HashMap<>(email.environment());
            env.put("AWS_LAMBDA_INITIALIZATION_TYPE", "snap-start");
            SandboxSpec snapStart =
                    new SandboxSpec(email.functionName(), email.functionArn(), email.artifact(), email.memoryMb(), env);
            Path log = options.workDir().resolve("email-snap-start.log");
            try (FunctionInstance sandbox = new FunctionInstance(snapStart, 1, system.javaRuntime(), log, exits::add)) {
                sandbox.start(Duration.ofSeconds(120));

                assertThat(Files.readString(log))
                        .contains("primed confirmation-email for its snapshot")
                        .doesNotContain("skipped, failing");
                assertThat(system.apiCalls().get(LocalSystem.EMAIL))
                        .as("AWS calls before the first event, priming included")
                        .isEmpty();

                InvocationResult r =
                        sandbox.invoke(firstBatch(system), Duration.ofSeconds(30), Duration.ofSeconds(120));

                assertThat(r).isInstanceOf(InvocationResult.Response.class);
                JsonNode answer = new ObjectMapper().readTree(((InvocationResult.Response) r).body());
                assertThat(answer.path("batchItemFailures")).isEmpty();
                assertThat(system.apiCalls().get(LocalSystem.EMAIL))
                        .as("the first event's claim, email and completion")
                        .containsKeys("dynamodb:PutItem", "s3:PUT", "dynamodb:UpdateItem");
            }
        }
        assertThat(exits).isEmpty();
    }

    /** One new order sent to the email function's queue and received as its mapping receives it. */
    private static String firstBatch(LocalSystem system) {
        String queue = system.sourceQueueUrl(LocalSystem.EMAIL);
        OrderTraffic orders = new OrderTraffic(system.aws().sqs(), 20261205L);
        orders.send(orders.newOrders(1, 0, "snapstart"), List.of(queue));
        List<Message> batch = system.aws()
                .sqs()
                .receiveMessage(b -> b.queueUrl(queue)
                        .maxNumberOfMessages(1)
                        .waitTimeSeconds(5)
                        .messageAttributeNames("All")
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                .messages();
        assertThat(batch).hasSize(1);
        String arn = system.resources().queues().values().stream()
                .filter(q -> q.url().equals(queue))
                .findFirst()
                .orElseThrow()
                .arn();
        return SqsEvents.event(
                new ObjectMapper(), batch, arn, system.aws().region().id());
    }
}
