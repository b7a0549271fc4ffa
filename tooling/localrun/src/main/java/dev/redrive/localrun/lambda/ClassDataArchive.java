package dev.redrive.localrun.lambda;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A class-data archive of a JVM function artifact, so that the local run's many cold starts cost less CPU.
 *
 * <p>A training sandbox is started once per run with {@code -XX:ArchiveClassesAtExit}: it initializes (the runtime
 * interface client loads the handler, Quarkus boots) up to its first poll of the Runtime API, and is then stopped with
 * SIGTERM, whose exit path writes the archive. Every sandbox of the run then maps those classes
 * ({@code -XX:SharedArchiveFile}) instead of reading them from the jars. Measured on this machine with the
 * confirmation-email handler, 8 starts of each, interleaved: start to first poll took 0.47–0.52 of the wall time and
 * 0.53–0.59 of the CPU time (about 0.7 s of CPU less per start); one archive serves every handler of the artifact.
 *
 * <p>This is a local-run measure, not AWS's: the managed runtime maps an archive of its own classes only, so local
 * cold starts are shorter than Lambda's ({@code --no-class-data-archive} turns it off). The archive is bound to the
 * artifact's jars by path and modification time: the JVM ignores it (one warning line, then an ordinary start) if a
 * jar is rebuilt, so it is written under the run's own directory, by one JVM, and never replaced while mapped.
 */
public final class ClassDataArchive {

    private ClassDataArchive() {}

    /**
     * Trains an archive of {@code sandbox}'s artifact (started as that sandbox would be) under a new directory in
     * {@code dir}; empty (the run starts its sandboxes without one) when the artifact is native, or when the training sandbox did not reach its first poll within
     * {@code timeout} or wrote no archive.
     */
    public static Optional<Path> train(SandboxSpec sandbox, ManagedJavaRuntime runtime, Path dir, Duration timeout)
            throws IOException, InterruptedException {
        FunctionArtifact artifact = sandbox.artifact();
        if (artifact.isNative()) {
            return Optional.empty();
        }
        // Absolute: the training JVM runs in a folder of its own and would resolve a relative path from there.
        Path home =
                Files.createTempDirectory(dir, "class-data-").toAbsolutePath().normalize();
        Path archive = home.resolve("functions.jsa");
        Path tmp = Files.createDirectories(home.resolve("tmp"));
        LambdaRuntimeApi api = new LambdaRuntimeApi(sandbox.functionArn());
        Process training = null;
        boolean trained = false;
        try {
            training = sandbox.process(
                            runtime,
                            tmp,
                            api.address(),
                            List.of("-XX:ArchiveClassesAtExit=" + archive),
                            home,
                            home.resolve("training.log"))
                    .start();
            CompletableFuture.anyOf(api.ready(), training.onExit()).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (api.ready().isDone()) {
                training.destroy(); // SIGTERM: the JVM's exit path writes the archive
                trained = training.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        && Files.isRegularFile(archive)
                        && Files.size(archive) > 0;
            }
        } catch (TimeoutException | ExecutionException e) {
            trained = false;
        } finally {
            if (training != null) {
                training.destroyForcibly();
                training.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            api.close();
            if (!trained) {
                // a JVM that exits before its first poll still writes an archive, of the few classes it loaded
                Files.deleteIfExists(archive);
            }
        }
        return trained ? Optional.of(archive) : Optional.empty();
    }
}
