package dev.redrive.localrun.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** How a sandbox's command names the packaged functions. */
class FunctionArtifactTest {

    /**
     * {@code bin/redrive-local} names the functions by a relative path ({@code examples/checkout/functions/target}) while every sandbox
     * runs in a folder of its own: a relative class path named nothing there, and every sandbox failed with
     * {@code ClassNotFoundException: io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler}.
     */
    @Test
    void theCommandNamesTheArtifactAndTheRuntimeClientByAbsolutePaths() throws Exception {
        Path relative = Path.of("target", "function-artifact-test");
        Files.createDirectories(relative);
        Path functions = Files.createTempDirectory(relative, "functions-");
        Files.writeString(functions.resolve("redrive-functions-1-runner.jar"), "not really a jar");
        assertThat(functions.isAbsolute()).isFalse();

        FunctionArtifact artifact = FunctionArtifact.find(functions);

        assertThat(artifact.executable()).isAbsolute();
        assertThat(Arrays.stream(artifact.classpath().split(File.pathSeparator)))
                .isNotEmpty()
                .allSatisfy(entry -> assertThat(Path.of(entry)).isAbsolute());
    }
}
