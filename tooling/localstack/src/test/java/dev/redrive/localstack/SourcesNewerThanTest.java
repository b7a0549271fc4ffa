package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/sources-newer-than}: how {@code bin/redrive} and {@code bin/redrive-local} decide that their jars are
 * older than the code. Before it, each script named the module folders itself, and after the move to {@code
 * platform/}, {@code tooling/} and {@code examples/} neither named one that exists: no change ever rebuilt a jar.
 */
class SourcesNewerThanTest {

    static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void aSourceChangedAfterTheJarIsSeenWhereverItsModuleLives() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Files.createDirectories(repo.resolve("bin"));
        Files.copy(ROOT.resolve("bin/sources-newer-than"), repo.resolve("bin/sources-newer-than"));
        repo.resolve("bin/sources-newer-than").toFile().setExecutable(true);
        Instant built = Instant.now().minus(1, ChronoUnit.HOURS);
        Path pom = write(repo.resolve("pom.xml"), built.minus(1, ChronoUnit.DAYS));
        write(repo.resolve("platform/redrive-core/pom.xml"), built.minus(1, ChronoUnit.DAYS));
        write(repo.resolve("platform/redrive-core/target/classes/Claim.class"), built.plus(1, ChronoUnit.MINUTES));
        Path jar = write(repo.resolve("tooling/localrun/target/redrive-local-run.jar"), built);

        assertThat(run(repo, jar)).as("nothing changed since the jar").isEmpty();

        write(repo.resolve("platform/redrive-core/src/main/java/Claim.java"), built.plus(5, ChronoUnit.MINUTES));

        assertThat(run(repo, jar)).isEqualTo("platform/redrive-core/src/main/java/Claim.java");
        assertThat(pom).exists();
    }

    @Test
    void aFileNewerThanEverySourcePrintsNothing() throws Exception {
        Path built = dir.resolve("new.jar");
        Files.writeString(built, "");
        Files.setLastModifiedTime(built, FileTime.from(Instant.now().plus(1, ChronoUnit.DAYS)));

        assertThat(run(ROOT, built)).isEmpty();
    }

    @Test
    void nothingBuiltYetIsOlderThanEverything() throws Exception {
        Path missing = dir.resolve("not-built/redrive-cli.jar");

        assertThat(run(ROOT, missing)).isEqualTo(missing.toString());
    }

    @Test
    void bothLaunchersAskIt() throws Exception {
        for (String launcher : new String[] {"bin/redrive", "bin/redrive-local"}) {
            assertThat(Files.readString(ROOT.resolve(launcher))).as(launcher).contains("bin/sources-newer-than");
        }
    }

    private static Path write(Path file, Instant modified) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "");
        Files.setLastModifiedTime(file, FileTime.from(modified));
        return file;
    }

    private static String run(Path repo, Path built) throws Exception {
        Process p = new ProcessBuilder(repo.resolve("bin/sources-newer-than").toString(), built.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
