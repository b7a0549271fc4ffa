package dev.redrive.localrun.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** How the sandboxes' JVMs are told where the runtime interface client's JNI library is. */
class ManagedJavaRuntimeTest {

    /**
     * {@code bin/redrive-local} runs in a relative work folder ({@code localrun/target/run}); the client refuses a
     * relative library path ({@code UnsatisfiedLinkError: Expecting an absolute path of the library}) and every
     * sandbox died before its first poll.
     */
    @Test
    void theJniLibraryPathIsAbsoluteEvenWhenTheRunFolderIsRelative() throws Exception {
        Path relative = Path.of("target", "managed-java-runtime-test");
        Files.createDirectories(relative);
        Path runDir = Files.createTempDirectory(relative, "run-");
        assertThat(runDir.isAbsolute()).isFalse();

        ManagedJavaRuntime runtime = ManagedJavaRuntime.unpackInto(runDir);

        assertThat(runtime.jniLibrary()).isAbsolute().isRegularFile();
        assertThat(runtime.jvmFlags(256, Path.of("tmp")))
                .contains("-D" + ManagedJavaRuntime.JNI_PROPERTY + "=" + runtime.jniLibrary());
    }
}
