package dev.redrive.cdk.function;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A tiny stand-in for the functions artifact, so the template can be synthesized (and linted, and provisioned
 * locally) without building the functions first. Its content never changes, so neither does its asset hash. A
 * function deployed with it fails every invocation with a message saying which artifact to deploy.
 */
public final class PlaceholderAsset {

    static final String BOOTSTRAP = """
            #!/bin/sh
            echo "Redrive placeholder: this function was deployed without its artifact. Build functions \
            (./mvnw -pl examples/checkout/functions -am package) and deploy with -c functionsAsset=../functions/target/function.zip" >&2
            exit 1
            """;

    private PlaceholderAsset() {}

    /** Writes the placeholder into {@code directory} (created if needed) and returns the directory. */
    public static Path write(Path directory) {
        try {
            Files.createDirectories(directory);
            Path bootstrap = directory.resolve("bootstrap");
            if (!Files.exists(bootstrap) || !Files.readString(bootstrap).equals(BOOTSTRAP)) {
                Files.writeString(bootstrap, BOOTSTRAP, StandardCharsets.UTF_8);
            }
            bootstrap.toFile().setExecutable(true, false);
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not write the placeholder function asset to " + directory
                            + "; check that the directory is writable",
                    e);
        }
    }
}
