package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.bench.BenchmarkRun;
import dev.redrive.localrun.bench.FirstEvent;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localrun.lambda.SandboxExit;
import dev.redrive.localrun.lambda.SandboxSpec;
import dev.redrive.testing.localaws.LocalAws;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

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
        RunOptions options = BenchmarkRun.options(
                LocalRunFixture.demoTemplate(),
                LocalRunFixture.packagedFunctions(),
                Files.createTempDirectory(work, "run-"),
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

                FirstEvent.Delivery batch = FirstEvent.of(LocalSystem.EMAIL, system, new ObjectMapper())
                        .next();
                Optional<String> problem = batch.deliver(
                        payload -> sandbox.invoke(payload, Duration.ofSeconds(30), Duration.ofSeconds(120)));

                assertThat(problem)
                        .as("the first batch, one new order, handled")
                        .isEmpty();
                assertThat(system.apiCalls().get(LocalSystem.EMAIL))
                        .as("the first event's claim, email and completion")
                        .containsKeys("dynamodb:PutItem", "s3:PUT", "dynamodb:UpdateItem");
            }
        }
        assertThat(exits).isEmpty();
    }
}
