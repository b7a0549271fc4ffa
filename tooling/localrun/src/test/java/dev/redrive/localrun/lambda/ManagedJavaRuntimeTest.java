package dev.redrive.localrun.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** How the sandboxes' JVMs are told where the runtime interface client's JNI library is. */
class ManagedJavaRuntimeTest {

    /**
     * {@code bin/redrive-local} runs in a relative work folder ({@code tooling/localrun/target/run}); the client refuses a
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

    @Test
    void aTrainedClassDataArchiveIsMappedByEverySandboxAndWithoutOneNoneIsNamed() {
        ManagedJavaRuntime runtime = ManagedJavaRuntime.unpackInto(Path.of("target", "managed-java-runtime-test"));
        Path archive = Path.of("/runs/7/class-data-1/functions.jsa");

        assertThat(runtime.jvmFlags(256, Path.of("tmp"))).noneMatch(f -> f.startsWith("-XX:SharedArchiveFile"));
        assertThat(runtime.withClassDataArchive(archive).jvmFlags(256, Path.of("tmp")))
                .containsSubsequence("-Xshare:auto", "-XX:SharedArchiveFile=" + archive)
                .contains("-D" + ManagedJavaRuntime.JNI_PROPERTY + "=" + runtime.jniLibrary());
        assertThat(runtime.withClassDataArchive(archive).classDataArchive()).contains(archive);
        assertThat(runtime.classDataArchive()).isEmpty();
    }

    @Test
    void withoutClassDataSharingNoArchiveIsMappedNotEvenTheJdks() {
        ManagedJavaRuntime runtime = ManagedJavaRuntime.unpackInto(Path.of("target", "managed-java-runtime-test"));

        assertThat(runtime.withoutClassDataSharing().jvmFlags(256, Path.of("tmp")))
                .contains("-Xshare:off")
                .doesNotContain("-Xshare:auto")
                .noneMatch(f -> f.startsWith("-XX:SharedArchiveFile"))
                .contains("-D" + ManagedJavaRuntime.JNI_PROPERTY + "=" + runtime.jniLibrary());
        assertThat(runtime.jvmFlags(256, Path.of("tmp")))
                .contains("-Xshare:auto")
                .doesNotContain("-Xshare:off");
    }
}
