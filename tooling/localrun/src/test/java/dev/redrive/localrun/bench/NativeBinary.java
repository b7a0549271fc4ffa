package dev.redrive.localrun.bench;

import dev.redrive.localrun.lambda.FunctionArtifact;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The native build the start-up benchmark compares with the JVM options ({@code --native}): an executable as is, or
 * the {@code bootstrap} of a {@code function.zip}, unpacked into the run's folder and made executable (a zip keeps no
 * permission Java can read).
 */
final class NativeBinary {

    private NativeBinary() {}

    /** The native artifact at {@code given}, unpacked into {@code runDir} if it is a zip. */
    static FunctionArtifact executable(Path given, Path runDir) {
        Path path = given.toAbsolutePath().normalize();
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("--native " + given + " is not a file: give the native executable "
                    + "(examples/checkout/functions/target/*-runner) or the function.zip that holds it as bootstrap");
        }
        if (!path.getFileName().toString().endsWith(".zip")) {
            if (!Files.isExecutable(path)) {
                throw new IllegalArgumentException("--native " + given + " is not executable");
            }
            return new FunctionArtifact("native", path, "");
        }
        try (ZipFile zip = new ZipFile(path.toFile())) {
            ZipEntry bootstrap = zip.getEntry("bootstrap");
            if (bootstrap == null) {
                throw new IllegalArgumentException("--native " + given + " has no bootstrap at its root");
            }
            Path target = Files.createDirectories(runDir.resolve("native")).resolve("bootstrap");
            try (InputStream in = zip.getInputStream(bootstrap)) {
                Files.copy(in, target);
            }
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
            return new FunctionArtifact("native", target, "");
        } catch (IOException e) {
            throw new UncheckedIOException("could not unpack the bootstrap of " + given, e);
        }
    }
}
