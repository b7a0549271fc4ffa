package dev.redrive.localrun.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox started as SnapStart initializes a version ({@code AWS_LAMBDA_INITIALIZATION_TYPE=snap-start}): AWS's
 * runtime interface client runs the function's {@code beforeCheckpoint} hooks at the end of its init and asks the
 * Runtime API {@code restore/next}; the local Runtime API answers at once (no snapshot is taken here), the client runs
 * the {@code afterRestore} hooks and polls for its first event. Without the restore endpoint the client's request was
 * answered 404 and the sandbox never polled.
 */
class SnapStartInitTest {

    @TempDir
    Path dir;

    @Test
    void aSnapStartInitRunsTheCheckpointHooksThenServesItsFirstEvent() throws Exception {
        assertThat(hooksSeenByTheFirstEvent(Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "snap-start")))
                .isEqualTo("\"beforeCheckpoint;afterRestore;\"");
    }

    @Test
    void anOnDemandInitRunsNoCheckpointHook() throws Exception {
        assertThat(hooksSeenByTheFirstEvent(Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand")))
                .isEqualTo("\"\"");
    }

    private String hooksSeenByTheFirstEvent(Map<String, String> environment) throws Exception {
        ManagedJavaRuntime runtime = ManagedJavaRuntime.unpackInto(dir.resolve("run"));
        List<SandboxExit> exits = new CopyOnWriteArrayList<>();
        try (FunctionInstance sandbox =
                new FunctionInstance(spec(environment), 1, runtime, dir.resolve("sandbox.log"), exits::add)) {
            sandbox.start(Duration.ofSeconds(60));
            InvocationResult r = sandbox.invoke("{}", Duration.ofSeconds(30), Duration.ofSeconds(60));
            assertThat(exits).as("sandboxes that died").isEmpty();
            assertThat(r).isInstanceOf(InvocationResult.Response.class);
            return ((InvocationResult.Response) r).body();
        }
    }

    private static SandboxSpec spec(Map<String, String> environment) throws Exception {
        Path classes = Path.of(CheckpointedEchoFunction.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toAbsolutePath();
        Map<String, String> env = new HashMap<>(environment);
        env.put("_HANDLER", CheckpointedEchoFunction.class.getName() + "::handleRequest");
        return new SandboxSpec(
                "checkpointed-echo",
                "arn:aws:lambda:us-east-1:000000000000:function:checkpointed-echo",
                new FunctionArtifact(
                        "jvm",
                        classes,
                        classes + File.pathSeparator + FunctionArtifact.runtimeInterfaceClientClasspath()),
                256,
                env);
    }
}
