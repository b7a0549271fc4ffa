package dev.redrive.localrun.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandboxes of one Java function starting at the same moment, under AWS's runtime interface client with the managed
 * {@code java21} runtime's flags. The client maps its JNI library at start; when every sandbox unpacked it to the
 * fixed {@code /tmp/.libaws-lambda-jni.so}, one overwrote the file while another mapped it and died with SIGBUS (3 of
 * 4 in the first round). Now each run unpacks it once, into its own folder, and every sandbox is pointed at it.
 */
class ConcurrentSandboxStartsTest {

    static final int ROUNDS = 20;
    static final int SANDBOXES = 4;

    @TempDir
    Path dir;

    @Test
    void fourSandboxesOfOneFunctionStartingAtOnceTwentyTimesInARowNeverCrash() throws Exception {
        ManagedJavaRuntime runtime = ManagedJavaRuntime.unpackInto(dir.resolve("run"));
        SandboxSpec spec = javaFunction(EchoFunction.class.getName() + "::handleRequest");
        List<SandboxExit> exits = new CopyOnWriteArrayList<>();
        List<String> failures = new CopyOnWriteArrayList<>();
        List<String> answers = new CopyOnWriteArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(SANDBOXES);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                CyclicBarrier together = new CyclicBarrier(SANDBOXES);
                List<Future<?>> started = new ArrayList<>();
                for (int i = 0; i < SANDBOXES; i++) {
                    String name = "r" + round + "-" + i;
                    FunctionInstance sandbox = new FunctionInstance(
                            spec, round * SANDBOXES + i, runtime, dir.resolve(name + ".log"), exits::add);
                    started.add(starters.submit(() -> {
                        together.await();
                        try (sandbox) {
                            sandbox.start(Duration.ofSeconds(60));
                            InvocationResult r =
                                    sandbox.invoke("\"" + name + "\"", Duration.ofSeconds(30), Duration.ofSeconds(60));
                            answers.add(
                                    r instanceof InvocationResult.Response response ? response.body() : r.toString());
                        } catch (RuntimeException e) {
                            failures.add(name + ": " + e.getMessage());
                        }
                        return null;
                    }));
                }
                for (Future<?> f : started) {
                    f.get(3, TimeUnit.MINUTES);
                }
            }
        } finally {
            starters.shutdownNow();
        }

        assertThat(exits).as("sandboxes that died (replaced or not)").isEmpty();
        assertThat(failures).as("starts or invocations that failed").isEmpty();
        List<String> expected = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < SANDBOXES; i++) {
                expected.add("\"r" + round + "-" + i + "\"");
            }
        }
        assertThat(answers).as("every sandbox answered its invocation").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(runtime.jniLibrary())
                .as("the JNI library every sandbox loads lives in this run's folder")
                .startsWith(dir)
                .isRegularFile();
    }

    @Test
    void aJavaFunctionWhoseHandlerClassIsMissingCannotStartAndSaysSoAtOnce() throws Exception {
        ManagedJavaRuntime runtime = ManagedJavaRuntime.unpackInto(dir.resolve("run"));
        SandboxSpec spec = javaFunction("dev.redrive.localrun.lambda.NoSuchFunction::handleRequest");
        FunctionPool pool = new FunctionPool(spec, runtime, dir, Duration.ofSeconds(30), Duration.ofSeconds(60), 1);
        try (pool) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> pool.invoke("{}"))
                    .isInstanceOf(FunctionInstance.FunctionCannotStart.class)
                    .hasMessageContaining("cannot start")
                    .hasMessageContaining("the handler class dev.redrive.localrun.lambda.NoSuchFunction is not on the "
                            + "class path");
            assertThat(Duration.ofNanos(System.nanoTime() - t0))
                    .as("failed without waiting for the 60 s init timeout")
                    .isLessThan(Duration.ofSeconds(45));
            assertThatThrownBy(pool::failIfCannotStart).isInstanceOf(FunctionInstance.FunctionCannotStart.class);
            assertThat(pool.exits())
                    .as("no sandbox was started for a handler the artifact does not hold")
                    .isEmpty();
        }
    }

    @Test
    void anArtifactWhoseClassPathNamesAMissingOrRelativeEntryCannotStartItsHandler() throws Exception {
        SandboxSpec echo = javaFunction(EchoFunction.class.getName() + "::handleRequest");
        FunctionArtifact artifact = echo.artifact();
        String handler = echo.environment().get("_HANDLER");
        assertThat(artifact.startProblem(handler)).isEmpty();

        String missing = dir.resolve("gone.jar").toString();
        assertThat(new FunctionArtifact(
                                "jvm", artifact.executable(), artifact.classpath() + File.pathSeparator + missing)
                        .startProblem(handler))
                .hasValueSatisfying(p -> assertThat(p).contains("the class path entry " + missing + " does not exist"));
        assertThat(new FunctionArtifact("jvm", artifact.executable(), "examples/checkout/functions/target/runner.jar")
                        .startProblem(handler))
                .hasValueSatisfying(p -> assertThat(p)
                        .contains("examples/checkout/functions/target/runner.jar does not exist (or is not "
                                + "absolute)"));
    }

    /** A function of this module's test classes (such as {@link EchoFunction}) under the runtime interface client. */
    private static SandboxSpec javaFunction(String handler) throws Exception {
        Path classes = Path.of(EchoFunction.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toAbsolutePath();
        String classpath = classes + File.pathSeparator + FunctionArtifact.runtimeInterfaceClientClasspath();
        return new SandboxSpec(
                "echo",
                "arn:aws:lambda:us-east-1:000000000000:function:echo",
                new FunctionArtifact("jvm", classes, classpath),
                256,
                Map.of("_HANDLER", handler));
    }
}
