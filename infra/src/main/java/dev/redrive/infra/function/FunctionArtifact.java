package dev.redrive.infra.function;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import software.amazon.awscdk.services.lambda.Code;

/**
 * The code every Redrive function runs: the one functions artifact ({@code function.zip}, JVM or native), or the
 * {@link PlaceholderAsset} when none was given or the given file does not exist.
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
     * The artifact at {@code configured} if that file exists, else the placeholder written to
     * {@code placeholderDirectory}.
     */
    public static FunctionArtifact resolve(Optional<String> configured, Path placeholderDirectory) {
        Optional<Path> file = configured.filter(s -> !s.isBlank()).map(Path::of).filter(Files::isRegularFile);
        return file.map(p -> new FunctionArtifact(p.toAbsolutePath().normalize(), false))
                .orElseGet(() -> new FunctionArtifact(PlaceholderAsset.write(placeholderDirectory), true));
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
