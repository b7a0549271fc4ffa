package dev.redrive.cdk.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.services.lambda.Architecture;

/** The artifact is checked at synth against the runtime and architecture it is deployed with (fixture zips). */
class FunctionArtifactTest {

    /** ELF e_machine values. */
    static final int X86_64 = 0x3E;

    static final int AARCH64 = 0xB7;

    @TempDir
    Path dir;

    Path placeholder() {
        return dir.resolve("placeholder");
    }

    /** The first 64 bytes of a little-endian 64-bit ELF executable for {@code machine}: all the check reads. */
    static byte[] elf(int machine) {
        byte[] header = new byte[64];
        header[0] = 0x7F;
        header[1] = 'E';
        header[2] = 'L';
        header[3] = 'F';
        header[4] = 2; // ELFCLASS64
        header[5] = 1; // little endian
        header[6] = 1; // version
        header[16] = 2; // ET_EXEC
        header[18] = (byte) machine;
        header[19] = (byte) (machine >> 8);
        return header;
    }

    Path zip(String name, Map<String, byte[]> entries) throws IOException {
        Path zip = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(zip);
                ZipOutputStream z = new ZipOutputStream(out)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        return zip;
    }

    /** What ./mvnw package -pl examples/checkout/functions gives: Quarkus' legacy jar, classes at the root and lib/*.jar. */
    Path jvmZip() throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n".getBytes());
        entries.put("dev/redrive/functions/lambda/ColdStart.class", new byte[] {(byte) 0xCA, (byte) 0xFE});
        entries.put("lib/dev.redrive.redrive-core-0.1.0.jar", new byte[] {'P', 'K'});
        return zip("jvm-function.zip", entries);
    }

    Path nativeZip(int machine) throws IOException {
        return zip("native-" + machine + ".zip", Map.of("bootstrap", elf(machine)));
    }

    FunctionArtifact resolve(Path zip, FunctionRuntime runtime, Architecture architecture) {
        return FunctionArtifact.resolve(Optional.of(zip.toString()), placeholder(), runtime, architecture);
    }

    @Test
    void aJvmZipDeploysOnTheJvmRuntimeOnEitherArchitecture() throws IOException {
        Path zip = jvmZip();

        assertThat(resolve(zip, FunctionRuntime.JVM, Architecture.X86_64).path())
                .isEqualTo(zip.toAbsolutePath());
        assertThat(resolve(zip, FunctionRuntime.JVM, Architecture.ARM_64).isPlaceholder())
                .isFalse();
    }

    @Test
    void aJvmZipIsRefusedForTheNativeRuntime() throws IOException {
        Path zip = jvmZip();

        assertThatThrownBy(() -> resolve(zip, FunctionRuntime.NATIVE, Architecture.X86_64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(zip.toString())
                .hasMessageContaining("is a JVM artifact")
                .hasMessageContaining("no bootstrap")
                .hasMessageContaining("-c runtime=jvm");
    }

    @Test
    void aNativeBootstrapMustMatchTheArchitecture() throws IOException {
        Path x86 = nativeZip(X86_64);
        Path arm = nativeZip(AARCH64);

        assertThat(resolve(x86, FunctionRuntime.NATIVE, Architecture.X86_64).isPlaceholder())
                .isFalse();
        assertThat(resolve(arm, FunctionRuntime.NATIVE, Architecture.ARM_64).isPlaceholder())
                .isFalse();
        assertThatThrownBy(() -> resolve(x86, FunctionRuntime.NATIVE, Architecture.ARM_64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bootstrap is an x86_64 executable")
                .hasMessageContaining("-c architecture=arm64")
                .hasMessageContaining("-c architecture=x86_64");
        assertThatThrownBy(() -> resolve(arm, FunctionRuntime.NATIVE, Architecture.X86_64))
                .hasMessageContaining("bootstrap is an arm64 executable");
    }

    @Test
    void aNativeZipIsRefusedForTheJvmRuntime() throws IOException {
        Path zip = nativeZip(X86_64);

        assertThatThrownBy(() -> resolve(zip, FunctionRuntime.JVM, Architecture.X86_64))
                .hasMessageContaining("holds a native bootstrap")
                .hasMessageContaining("-c runtime=native");
    }

    @Test
    void aBootstrapScriptIsCheckedThroughTheExecutableItStarts() throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("bootstrap", "#!/bin/sh\nexec ./runner -Xmx200m\n".getBytes());
        entries.put("runner", elf(AARCH64));
        Path wrapped = zip("wrapped.zip", entries);
        Path scriptOnly = zip("script.zip", Map.of("bootstrap", "#!/bin/sh\necho hi\n".getBytes()));

        assertThat(resolve(wrapped, FunctionRuntime.NATIVE, Architecture.ARM_64).isPlaceholder())
                .isFalse();
        assertThatThrownBy(() -> resolve(wrapped, FunctionRuntime.NATIVE, Architecture.X86_64))
                .hasMessageContaining("runner is an arm64 executable");
        assertThatThrownBy(() -> resolve(scriptOnly, FunctionRuntime.NATIVE, Architecture.X86_64))
                .hasMessageContaining("no native executable");
    }

    @Test
    void aSetButMissingArtifactFailsNamingThePathAndHowToBuildIt() {
        Path missing = dir.resolve("examples/checkout/functions/target/function.zip");

        assertThatThrownBy(() -> resolve(missing, FunctionRuntime.JVM, Architecture.X86_64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("functionsAsset " + missing + " does not exist")
                .hasMessageContaining(FunctionArtifact.BuildHint.QUARKUS.jvm());
        FunctionArtifact.BuildHint own = new FunctionArtifact.BuildHint("make jvm", "make native", "BUILDING.md");
        assertThatThrownBy(() -> FunctionArtifact.resolve(
                        Optional.of(missing.toString()), placeholder(), FunctionRuntime.JVM, Architecture.X86_64, own))
                .hasMessageContaining("build it with make jvm");
    }

    @Test
    void somethingThatIsNotAZipIsRefused() throws IOException {
        Path notZip = Files.writeString(dir.resolve("function.zip"), "not a zip");

        assertThatThrownBy(() -> resolve(notZip, FunctionRuntime.JVM, Architecture.X86_64))
                .hasMessageContaining("is not a readable zip");
    }

    @Test
    void withoutAnArtifactThePlaceholderIsUsed() {
        FunctionArtifact artifact =
                FunctionArtifact.resolve(Optional.empty(), placeholder(), FunctionRuntime.NATIVE, Architecture.ARM_64);

        assertThat(artifact.isPlaceholder()).isTrue();
        assertThat(artifact.path().resolve("bootstrap")).exists();
    }
}
