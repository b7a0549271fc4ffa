package dev.redrive.localrun.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.localrun.lambda.FunctionInstance.FunctionCannotStart;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the local Lambda service does when a sandbox dies by itself: before its first poll it is replaced, and a
 * function whose sandboxes never get that far fails at once, naming the log; during an invocation the invocation
 * ends with {@code Runtime.ExitError} at once, not at its timeout. Every such exit is reported with its reason and the
 * tail of its log.
 *
 * <p>The sandboxes here are small {@code bootstrap} scripts (a custom runtime, as {@code provided.al2023} runs one)
 * that speak the Runtime API with curl, so each start costs milliseconds rather than a JVM's start-up.
 */
class SandboxLifecycleTest {

    @TempDir
    Path dir;

    ManagedJavaRuntime runtime;

    @BeforeEach
    void runtime() {
        runtime = ManagedJavaRuntime.unpackInto(dir.resolve("run"));
    }

    @Test
    void aSandboxThatDiesBeforeItsFirstPollIsReplacedAndItsExitReported() throws Exception {
        Path once = dir.resolve("died-once");
        FunctionPool pool = pool("""
                if [ ! -f "%s" ]; then touch "%s"; echo "loading the runtime library"; kill -BUS $$; fi
                %s
                """.formatted(once, once, ANSWER_EVERY_INVOCATION), Duration.ofSeconds(20));
        try (pool) {
            InvocationResult r = pool.invoke("{\"n\":1}");

            assertThat(r).isInstanceOf(InvocationResult.Response.class);
            assertThat(pool.exits()).singleElement().satisfies(exit -> {
                assertThat(exit.phase()).isEqualTo("init");
                assertThat(exit.reason()).isEqualTo("signal 7 (SIGBUS)");
                assertThat(exit.logTail()).contains("loading the runtime library");
                assertThat(exit.log()).exists();
            });
        }
    }

    @Test
    void aFunctionWhoseSandboxesNeverReachTheirFirstPollFailsAtOnceNamingItsLog() throws Exception {
        FunctionPool pool = pool("echo 'cannot read the configuration'; exit 3", Duration.ofSeconds(60));
        try (pool) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> pool.invoke("{}"))
                    .isInstanceOf(FunctionCannotStart.class)
                    .hasMessageContaining("cannot start")
                    .hasMessageContaining("exit code 3")
                    .hasMessageContaining(dir.resolve("broken-1.log").toString());
            assertThat(Duration.ofNanos(System.nanoTime() - t0))
                    .as("failed without waiting for the 60 s init timeout")
                    .isLessThan(Duration.ofSeconds(20));
            assertThat(pool.exits()).hasSize(FunctionInstance.START_ATTEMPTS).allSatisfy(exit -> {
                assertThat(exit.reason()).isEqualTo("exit code 3");
                assertThat(exit.logTail()).contains("cannot read the configuration");
            });
            assertThatThrownBy(pool::failIfCannotStart).isInstanceOf(FunctionCannotStart.class);
            assertThatThrownBy(() -> pool.invoke("{}")).isInstanceOf(FunctionCannotStart.class);
        }
    }

    @Test
    void aSandboxThatDiesWhileHandlingAnInvocationEndsItAtOnceWithAnExitError() throws Exception {
        FunctionPool pool = pool("""
                curl -sf "http://$AWS_LAMBDA_RUNTIME_API/2018-06-01/runtime/invocation/next" >/dev/null
                echo "out of memory while reading the batch"
                kill -KILL $$
                """, Duration.ofSeconds(20));
        try (pool) {
            long t0 = System.nanoTime();
            InvocationResult r = pool.invoke("{}");

            assertThat(r)
                    .isInstanceOfSatisfying(
                            InvocationResult.FunctionError.class,
                            e -> assertThat(e.errorType()).isEqualTo("Runtime.ExitError"));
            assertThat(Duration.ofNanos(System.nanoTime() - t0))
                    .as("ended when the sandbox died, not at the 30 s invocation timeout")
                    .isLessThan(Duration.ofSeconds(20));
            assertThat(pool.exits()).singleElement().satisfies(exit -> {
                assertThat(exit.phase()).isEqualTo("invoke");
                assertThat(exit.reason()).isEqualTo("signal 9 (SIGKILL)");
            });
        }
    }

    /**
     * Lambda ends an environment whose invocation timed out, and a function without external extensions gets no
     * SIGTERM and no grace: its runtime is killed (the Lambda Developer Guide, "Lambda execution environment
     * lifecycle", Shutdown phase; SIGTERM and up to 300 ms come only with a registered external extension). A sandbox
     * given a grace instead went on running its handler past its deadline, effects included.
     */
    @Test
    void aSandboxWhoseInvocationTimedOutIsKilledAtOnceWithoutASigterm() throws Exception {
        Path sigterm = dir.resolve("sigterm-received");
        Path started = dir.resolve("handler-started");
        FunctionPool pool = pool("""
                trap 'touch "%s"' TERM
                curl -sf "http://$AWS_LAMBDA_RUNTIME_API/2018-06-01/runtime/invocation/next" >/dev/null
                echo $$ > "%s"
                while true; do sleep 0.05; done
                """.formatted(sigterm, started), Duration.ofSeconds(20), Duration.ofSeconds(2));
        try (pool) {
            long t0 = System.nanoTime();
            InvocationResult r = pool.invoke("{}");
            Duration took = Duration.ofNanos(System.nanoTime() - t0);

            assertThat(r).isInstanceOf(InvocationResult.Timeout.class);
            assertThat(started).as("the handler ran").exists();
            long pid = Long.parseLong(Files.readString(started).trim());
            assertThat(sigterm).as("a SIGTERM reached the timed-out sandbox").doesNotExist();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .as("the timed-out sandbox is gone when the invocation ends")
                    .isFalse();
            assertThat(took)
                    .as("the invocation ended at its 2 s timeout, not after a 5 s grace for the sandbox to stop")
                    .isLessThan(Duration.ofSeconds(6));
        }
    }

    @Test
    void everyJvmSandboxLoadsTheRuntimeLibraryFromTheRunsFolderAndHasItsOwnTmp() {
        Path tmp = dir.resolve("sandbox-tmp");
        assertThat(runtime.jniLibrary()).isRegularFile().startsWith(dir.resolve("run"));
        assertThat(runtime.jvmFlags(512, tmp))
                .contains("-D" + ManagedJavaRuntime.JNI_PROPERTY + "=" + runtime.jniLibrary())
                .contains("-Djava.io.tmpdir=" + tmp)
                .contains("-XX:MaxHeapSize=445645k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    }

    @Test
    void theRuntimeLibraryPathIsAbsoluteEvenForARelativeRunFolder() {
        Path relative = Path.of("").toAbsolutePath().relativize(dir.resolve("relative-run"));

        ManagedJavaRuntime fromRelative = ManagedJavaRuntime.unpackInto(relative);

        assertThat(fromRelative.jniLibrary()).isAbsolute().isRegularFile();
    }

    @Test
    void aJvmArtifactFoundThroughARelativePathStartsWithAbsolutePathsOnly() throws IOException {
        Path target = Files.createDirectories(dir.resolve("functions-target"));
        Files.createFile(target.resolve("redrive-functions-runner.jar"));
        Path relative = Path.of("").toAbsolutePath().relativize(target);

        List<String> command = FunctionArtifact.find(relative).command(runtime, 256, dir.resolve("tmp"));

        String classpath = command.get(command.indexOf("-cp") + 1);
        assertThat(classpath.split(File.pathSeparator))
                .as("a sandbox runs in its own folder: a relative entry would point elsewhere")
                .allSatisfy(entry -> assertThat(Path.of(entry)).isAbsolute())
                .contains(target.resolve("redrive-functions-runner.jar").toString());
    }

    @Test
    void theRuntimeLibraryIsChosenByArchitectureAndLibc() {
        assertThat(ManagedJavaRuntime.jniLibraryName("amd64", false)).isEqualTo("libaws-lambda-jni.linux-x86_64.so");
        assertThat(ManagedJavaRuntime.jniLibraryName("aarch64", false))
                .isEqualTo("libaws-lambda-jni.linux-aarch_64.so");
        assertThat(ManagedJavaRuntime.jniLibraryName("amd64", true))
                .isEqualTo("libaws-lambda-jni.linux_musl-x86_64.so");
        assertThatThrownBy(() -> ManagedJavaRuntime.jniLibraryName("s390x", false))
                .hasMessageContaining("s390x");
    }

    /** A bootstrap loop that answers every invocation with its own payload. */
    private static final String ANSWER_EVERY_INVOCATION = """
            api="http://$AWS_LAMBDA_RUNTIME_API/2018-06-01/runtime/invocation"
            while true; do
              headers=$(mktemp)
              body=$(curl -sf -D "$headers" "$api/next") || exit 0
              id=$(grep -i '^Lambda-Runtime-Aws-Request-Id:' "$headers" | cut -d' ' -f2 | tr -d '\\r')
              curl -sf -X POST -d "$body" "$api/$id/response" >/dev/null
            done
            """;

    private FunctionPool pool(String script, Duration initTimeout) throws IOException {
        return pool(script, initTimeout, Duration.ofSeconds(30));
    }

    private FunctionPool pool(String script, Duration initTimeout, Duration timeout) throws IOException {
        Path bootstrap = dir.resolve("bootstrap-" + System.nanoTime());
        Files.writeString(bootstrap, "#!/usr/bin/env bash\n" + script);
        Files.setPosixFilePermissions(bootstrap, PosixFilePermissions.fromString("rwx------"));
        String name = script.contains("exit 3") ? "broken" : "fn";
        SandboxSpec spec = new SandboxSpec(
                name,
                "arn:aws:lambda:us-east-1:000000000000:function:" + name,
                new FunctionArtifact("native", bootstrap, ""),
                128,
                Map.of());
        return new FunctionPool(spec, runtime, dir, timeout, initTimeout, 1);
    }
}
