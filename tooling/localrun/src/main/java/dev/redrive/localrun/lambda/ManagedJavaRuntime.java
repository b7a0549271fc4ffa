package dev.redrive.localrun.lambda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How AWS's managed {@code java21} runtime starts a function's JVM, reproduced for the local sandboxes so that their
 * start-up figures mean what they would mean on Lambda, and so that no sandbox writes a path another one reads.
 *
 * <p>The runtime starts (as read from its process list; the Log4j hot-patch agent is left out, nothing here uses
 * Log4j):
 *
 * <pre>
 * java -XX:MaxHeapSize=&lt;85% of the function's memory&gt;k -XX:+UseSerialGC -Xshare:auto
 *      -XX:+TieredCompilation -XX:TieredStopAtLevel=1 --add-opens=java.base/java.io=ALL-UNNAMED
 *      -Dorg.crac.Core.Compat=com.amazonaws.services.lambda.crac -XX:+ErrorFileToStderr
 *      -Djava.net.preferIPv4Stack=true
 *      -Dcom.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI=/var/runtime/lib/jni/…so
 *      -cp … com.amazonaws.services.lambda.runtime.api.client.AWSLambda &lt;handler&gt;
 * </pre>
 *
 * <p>The departures: {@code -Djava.io.tmpdir} points at the sandbox's own folder, because every Lambda sandbox has
 * its own {@code /tmp} while these sandboxes share one machine. {@code -Xshare:auto} takes the JDK's default
 * class-data archive where AWS ships its own ({@code -Xshare:on -XX:SharedArchiveFile=…/runtime.jsa}); and a run
 * that trained a {@link ClassDataArchive} of the function artifact adds {@code -XX:SharedArchiveFile=} with it, which
 * makes local cold starts cheaper (and shorter) than Lambda's.
 *
 * <p>The runtime interface client loads its JNI library from the path in the {@code NativeClient.JNI} property; without
 * it, it copies the library to the fixed path {@code /tmp/.libaws-lambda-jni.so} and maps it from there, so two
 * sandboxes starting at once can map a file the other is rewriting (SIGBUS in the dynamic loader). The library is
 * therefore unpacked once per local run, into the run's own folder, and every sandbox gets the property.
 */
public final class ManagedJavaRuntime {

    /** The system property the runtime interface client reads the JNI library's path from. */
    public static final String JNI_PROPERTY =
            "com.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI";

    private final Path jniLibrary;
    private final Path classDataArchive;
    private final boolean classDataSharing;

    private ManagedJavaRuntime(Path jniLibrary, Path classDataArchive, boolean classDataSharing) {
        this.jniLibrary = jniLibrary;
        this.classDataArchive = classDataArchive;
        this.classDataSharing = classDataSharing;
    }

    /** This runtime, its sandboxes mapping {@code archive} (a {@link ClassDataArchive} of the function artifact). */
    public ManagedJavaRuntime withClassDataArchive(Path archive) {
        return new ManagedJavaRuntime(jniLibrary, archive, true);
    }

    /**
     * This runtime with class-data sharing off ({@code -Xshare:off}): no archive at all, not even the JDK's, every
     * class read from its jar. The start-up benchmark's floor.
     */
    public ManagedJavaRuntime withoutClassDataSharing() {
        return new ManagedJavaRuntime(jniLibrary, null, false);
    }

    /** The class-data archive the sandboxes map, if the run trained one. */
    public Optional<Path> classDataArchive() {
        return Optional.ofNullable(classDataArchive);
    }

    /**
     * Unpacks the runtime interface client's JNI library for this machine into {@code runDir/runtime/lib/jni/}
     * (written under a temporary name, then moved into place, so no reader ever sees a partial file).
     */
    public static ManagedJavaRuntime unpackInto(Path runDir) {
        String library = jniLibraryName(System.getProperty("os.arch"), isMusl());
        // Absolute: System.load refuses a relative path, and the sandboxes run in folders of their own.
        Path target = runDir.toAbsolutePath()
                .normalize()
                .resolve("runtime")
                .resolve("lib")
                .resolve("jni")
                .resolve(library);
        try {
            Files.createDirectories(target.getParent());
            Path partial = Files.createTempFile(target.getParent(), library, ".partial");
            try (InputStream in = jniResource(library)) {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not unpack the runtime interface client's JNI library to " + target, e);
        }
        return new ManagedJavaRuntime(target, null, true);
    }

    /** The unpacked JNI library every sandbox loads. */
    public Path jniLibrary() {
        return jniLibrary;
    }

    /** The JVM flags of the {@code java21} runtime for a function of {@code memoryMb}, with its own {@code tmp}. */
    public List<String> jvmFlags(int memoryMb, Path sandboxTmp) {
        List<String> flags = new ArrayList<>(List.of(
                "-XX:MaxHeapSize=" + maxHeapKilobytes(memoryMb) + "k",
                "-XX:+UseSerialGC",
                classDataSharing ? "-Xshare:auto" : "-Xshare:off",
                "-XX:+TieredCompilation",
                "-XX:TieredStopAtLevel=1",
                "--add-opens=java.base/java.io=ALL-UNNAMED",
                "-Dorg.crac.Core.Compat=com.amazonaws.services.lambda.crac",
                "-XX:+ErrorFileToStderr",
                "-Djava.net.preferIPv4Stack=true",
                "-D" + JNI_PROPERTY + "=" + jniLibrary,
                "-Djava.io.tmpdir=" + sandboxTmp));
        if (classDataArchive != null) {
            flags.add(3, "-XX:SharedArchiveFile=" + classDataArchive);
        }
        return List.copyOf(flags);
    }

    /** 85% of the function's memory, in kilobytes, as the runtime sizes the heap (512 MB gives 445645k). */
    static long maxHeapKilobytes(int memoryMb) {
        return Math.round(memoryMb * 1024L * 0.85);
    }

    /** The name of the library in the client's jar ({@code jni/libaws-lambda-jni.<platform>.so}). */
    static String jniLibraryName(String osArch, boolean musl) {
        String arch = switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch_64";
            default ->
                throw new IllegalStateException("the runtime interface client has no JNI library for " + osArch
                        + " (it ships x86_64 and aarch64)");
        };
        return "libaws-lambda-jni.linux" + (musl ? "_musl" : "") + "-" + arch + ".so";
    }

    private static boolean isMusl() {
        try (var libs = Files.list(Path.of("/lib"))) {
            return libs.anyMatch(p -> p.getFileName().toString().startsWith("ld-musl-"));
        } catch (IOException e) {
            return false;
        }
    }

    private static InputStream jniResource(String library) throws IOException {
        ClassLoader loader = ManagedJavaRuntime.class.getClassLoader();
        InputStream in = loader.getResourceAsStream("jni/" + library);
        if (in == null) {
            throw new IOException(
                    "jni/" + library + " is not in aws-lambda-java-runtime-interface-client on the " + "classpath");
        }
        return in;
    }
}
