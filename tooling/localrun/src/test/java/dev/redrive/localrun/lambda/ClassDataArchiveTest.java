package dev.redrive.localrun.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When no class-data archive can be trained, the run starts its sandboxes from the jars. (That a trained archive is
 * mapped by the packaged functions' sandboxes is {@code LocalRunEndToEndTest}'s.)
 */
class ClassDataArchiveTest {

    @TempDir
    Path dir;

    @Test
    void aTrainingSandboxThatNeverPollsGivesNoArchive() throws Exception {
        ManagedJavaRuntime runtime = ManagedJavaRuntime.unpackInto(dir.resolve("run"));
        Path missing = dir.resolve("gone.jar");
        SandboxSpec broken = new SandboxSpec(
                "broken",
                "arn:aws:lambda:us-east-1:000000000000:function:broken",
                new FunctionArtifact("jvm", missing, missing.toString()),
                256,
                Map.of());

        long t0 = System.nanoTime();
        assertThat(ClassDataArchive.train(broken, runtime, dir, Duration.ofSeconds(60)))
                .isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - t0))
                .as("given up when the training JVM exited, not at the timeout")
                .isLessThan(Duration.ofSeconds(30));
        try (var files = Files.walk(dir)) {
            assertThat(files.filter(p -> p.toString().endsWith(".jsa"))).isEmpty();
        }
    }

    @Test
    void aNativeArtifactHasNoClassDataToArchive() throws Exception {
        ManagedJavaRuntime runtime = ManagedJavaRuntime.unpackInto(dir.resolve("run"));
        SandboxSpec nativeFunction = new SandboxSpec(
                "native",
                "arn:aws:lambda:us-east-1:000000000000:function:native",
                new FunctionArtifact("native", dir.resolve("bootstrap"), ""),
                256,
                Map.of());

        assertThat(ClassDataArchive.train(nativeFunction, runtime, dir, Duration.ofSeconds(60)))
                .isEmpty();
    }
}
