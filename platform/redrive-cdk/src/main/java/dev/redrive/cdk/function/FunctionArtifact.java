package dev.redrive.cdk.function;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;

/**
 * The code every Redrive function runs: the one functions artifact ({@code function.zip}, JVM or native), or the
 * {@link PlaceholderAsset} when none was given. A given artifact is checked at synth, so a wrong one fails the synth
 * instead of every invocation: it must exist; it must hold Java code and no {@code bootstrap} for the JVM runtime, and
 * a {@code bootstrap} (the native executable, or a script next to {@code runner}) for the native one; and the native
 * executable's ELF machine must be the architecture it is deployed on.
 */
public final class FunctionArtifact {

    /**
     * How an application builds its functions artifact, for the messages that refuse one: the JVM {@code function.zip},
     * the native one, and where a native build for another architecture is explained.
     *
     * @param jvm          the command that builds the JVM {@code function.zip}
     * @param nativeImage  the command that builds the native one
     * @param nativeGuide  where building a native image for a given architecture is explained
     */
    public record BuildHint(String jvm, String nativeImage, String nativeGuide) {

        /** A Quarkus Lambda application's, in its own project. */
        public static final BuildHint QUARKUS = new BuildHint(
                "mvn package in the Quarkus application (it writes target/function.zip)",
                "mvn package -Dquarkus.native.enabled=true in the Quarkus application",
                "the Quarkus Amazon Lambda guide (a container build on a machine of that architecture)");
    }

    private final Path path;
    private final boolean placeholder;
    private Code code;

    private FunctionArtifact(Path path, boolean placeholder) {
        this.path = path;
        this.placeholder = placeholder;
    }

    /**
     * The artifact at {@code configured}, checked against {@code runtime} and {@code architecture}; without one, the
     * placeholder written to {@code placeholderDirectory}.
     *
     * @throws IllegalArgumentException naming the artifact and what to change when it is missing or does not fit
     */
    public static FunctionArtifact resolve(
            Optional<String> configured,
            Path placeholderDirectory,
            FunctionRuntime runtime,
            Architecture architecture) {
        return resolve(configured, placeholderDirectory, runtime, architecture, BuildHint.QUARKUS);
    }

    /** As {@link #resolve(Optional, Path, FunctionRuntime, Architecture)}, its refusals naming {@code build}. */
    public static FunctionArtifact resolve(
            Optional<String> configured,
            Path placeholderDirectory,
            FunctionRuntime runtime,
            Architecture architecture,
            BuildHint build) {
        Optional<String> given = configured.map(String::trim).filter(s -> !s.isEmpty());
        if (given.isEmpty()) {
            return new FunctionArtifact(PlaceholderAsset.write(placeholderDirectory), true);
        }
        Path file = Path.of(given.get());
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("functionsAsset " + given.get() + " does not exist (looked at "
                    + file.toAbsolutePath().normalize()
                    + "): build it with " + build.jvm() + " or fix -c functionsAsset; "
                    + "leave functionsAsset unset to synthesize with the placeholder");
        }
        check(given.get(), ArtifactContents.of(file), runtime, architecture.getName(), build);
        return new FunctionArtifact(file.toAbsolutePath().normalize(), false);
    }

    private static void check(
            String name, ArtifactContents contents, FunctionRuntime runtime, String architecture, BuildHint build) {
        if (runtime == FunctionRuntime.JVM) {
            if (contents.bootstrap()) {
                throw new IllegalArgumentException("functionsAsset " + name + " holds a native bootstrap but "
                        + "-c runtime=jvm: deploy it with -c runtime=native, or deploy the JVM function.zip of "
                        + build.jvm());
            }
            if (!contents.javaCode()) {
                throw new IllegalArgumentException("functionsAsset " + name + " holds no Java code (no classes, no "
                        + "lib/*.jar): it is not the functions' JVM artifact; build it with " + build.jvm());
            }
            return;
        }
        if (!contents.bootstrap()) {
            throw new IllegalArgumentException("functionsAsset " + name
                    + (contents.javaCode() ? " is a JVM artifact (Java code, no bootstrap)" : " has no bootstrap")
                    + " but -c runtime=native: deploy it with -c runtime=jvm, or build the native bootstrap ("
                    + build.nativeImage() + ", see " + build.nativeGuide() + ")");
        }
        ArtifactContents.NativeExecutable executable = contents.executable()
                .orElseThrow(
                        () -> new IllegalArgumentException("functionsAsset " + name + " has a bootstrap script but "
                                + "no native executable (neither bootstrap nor runner is an ELF file): Lambda would start "
                                + "nothing; build it with " + build.nativeImage()));
        if (!executable.machine().equals(architecture)) {
            throw new IllegalArgumentException("functionsAsset " + name + ": its " + executable.entry() + " is an "
                    + executable.machine() + " executable but -c architecture=" + architecture + ": every cold start "
                    + "would fail with an exec format error. Build the native image for " + architecture
                    + " (" + build.nativeGuide() + ") or deploy with "
                    + "-c architecture=" + executable.machine());
        }
    }

    /** The zip (or, for the placeholder, the directory) that becomes the Lambda asset. */
    public Path path() {
        return path;
    }

    /** Whether this is the placeholder: fine for synthesis and local tests, useless deployed. */
    public boolean isPlaceholder() {
        return placeholder;
    }

    /** The Lambda code, one asset shared by every function of the stack. */
    public synchronized Code code() {
        if (code == null) {
            code = Code.fromAsset(path.toString());
        }
        return code;
    }
}
