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
        Optional<String> given = configured.map(String::trim).filter(s -> !s.isEmpty());
        if (given.isEmpty()) {
            return new FunctionArtifact(PlaceholderAsset.write(placeholderDirectory), true);
        }
        Path file = Path.of(given.get());
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("functionsAsset " + given.get() + " does not exist (looked at "
                    + file.toAbsolutePath().normalize()
                    + "): build it with ./mvnw -B -ntp package -pl examples/checkout/functions -am "
                    + "from the repository root (it writes examples/checkout/functions/target/function.zip) or fix -c functionsAsset; "
                    + "leave functionsAsset unset to synthesize with the placeholder");
        }
        check(given.get(), ArtifactContents.of(file), runtime, architecture.getName());
        return new FunctionArtifact(file.toAbsolutePath().normalize(), false);
    }

    private static void check(String name, ArtifactContents contents, FunctionRuntime runtime, String architecture) {
        if (runtime == FunctionRuntime.JVM) {
            if (contents.bootstrap()) {
                throw new IllegalArgumentException("functionsAsset " + name + " holds a native bootstrap but "
                        + "-c runtime=jvm: deploy it with -c runtime=native, or deploy the JVM function.zip of "
                        + "./mvnw -B -ntp package -pl examples/checkout/functions -am");
            }
            if (!contents.javaCode()) {
                throw new IllegalArgumentException("functionsAsset " + name + " holds no Java code (no classes, no "
                        + "lib/*.jar): it is not the functions' JVM artifact; build it with "
                        + "./mvnw -B -ntp package -pl examples/checkout/functions -am");
            }
            return;
        }
        if (!contents.bootstrap()) {
            throw new IllegalArgumentException(
                    "functionsAsset " + name
                            + (contents.javaCode()
                                    ? " is a JVM artifact (Java code, no bootstrap)"
                                    : " has no bootstrap")
                            + " but -c runtime=native: deploy it with -c runtime=jvm, or build the native bootstrap "
                            + "(./mvnw -B -ntp package -pl examples/checkout/functions -am -Pnative, see examples/checkout/infra/README.md)");
        }
        ArtifactContents.NativeExecutable executable = contents.executable()
                .orElseThrow(
                        () -> new IllegalArgumentException(
                                "functionsAsset " + name + " has a bootstrap script but "
                                        + "no native executable (neither bootstrap nor runner is an ELF file): Lambda would start "
                                        + "nothing; build it with ./mvnw -B -ntp package -pl examples/checkout/functions -am -Pnative"));
        if (!executable.machine().equals(architecture)) {
            throw new IllegalArgumentException("functionsAsset " + name + ": its " + executable.entry() + " is an "
                    + executable.machine() + " executable but -c architecture=" + architecture + ": every cold start "
                    + "would fail with an exec format error. Build the native image for " + architecture
                    + " (examples/checkout/infra/README.md: a Mandrel container build on a machine of that architecture) or deploy with "
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
