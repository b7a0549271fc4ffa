package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution a user downloads ({@code target/redrive-cli-<version>.tar.gz} and {@code .zip}, built by the
 * assembly at {@code package}): unpacked with {@code tar} into a fresh directory, its {@code bin/redrive} runs with
 * nothing in the environment but {@code JAVA_HOME} and {@code PATH}, from anywhere, through symlinks, passes options,
 * arguments and exit codes through, refuses an old Java by name, and the archive holds no example code.
 */
class DistributionIT {

    static final String VERSION = System.getProperty("redrive.cli.version");
    static final Path BASE = Path.of(System.getProperty("redrive.cli.dist")); // target/redrive-cli-<version>
    static final Path TAR = Path.of(BASE + ".tar.gz");
    static final Path ZIP = Path.of(BASE + ".zip");
    static final Path TARGET_LIB = BASE.resolveSibling("lib"); // copy-dependencies' runtime set
    static final Path REPOSITORY_LICENSE =
            Path.of("../../LICENSE").toAbsolutePath().normalize();
    static final String TOP = "redrive-cli-" + VERSION;
    static final List<String> COMMANDS =
            List.of("list", "show", "replay", "archive", "window", "breaker", "stats", "backoff");

    @TempDir
    Path tmp;

    @Test
    void theArchiveHoldsTheLauncherTheCliAndItsLibrariesTheLicenseAndAReadmeAndNoExampleCode() throws Exception {
        List<String> entries = files(
                run(tmp, List.of("tar", "-tzf", TAR.toString()), Map.of()).out.lines());
        assertThat(entries).allSatisfy(e -> assertThat(e).startsWith(TOP + "/"));
        assertThat(entries)
                .contains(
                        TOP + "/bin/redrive",
                        TOP + "/bin/redrive.cmd",
                        TOP + "/README.md",
                        TOP + "/LICENSE",
                        TOP + "/lib/redrive-cli-" + VERSION + ".jar");

        // lib/ is the CLI's jar and exactly the runtime dependencies the build copies next to the jar.
        TreeSet<String> expectedLib = new TreeSet<>(names(TARGET_LIB));
        expectedLib.add("redrive-cli-" + VERSION + ".jar");
        List<String> lib = entries.stream()
                .filter(e -> e.startsWith(TOP + "/lib/"))
                .map(e -> e.substring((TOP + "/lib/").length()))
                .sorted()
                .toList();
        assertThat(lib).containsExactlyElementsOf(expectedLib);
        assertThat(lib).noneMatch(n -> n.startsWith("redrive-checkout") || n.startsWith("redrive-functions"));

        // The zip holds the same files.
        try (ZipFile zip = new ZipFile(ZIP.toFile())) {
            List<String> zipped = files(zip.stream().map(ZipEntry::getName));
            assertThat(zipped).containsExactlyInAnyOrderElementsOf(entries);
        }

        Path home = unpack(tmp.resolve("unpacked"));
        assertThat(home.resolve("bin/redrive")).isExecutable();
        assertThat(Files.readAllBytes(home.resolve("LICENSE"))).isEqualTo(Files.readAllBytes(REPOSITORY_LICENSE));
        assertThat(Files.readString(home.resolve("README.md")))
                .contains("redrive " + VERSION, "tar xzf redrive-cli-" + VERSION + ".tar.gz", "REDRIVE_ROUTES")
                .doesNotContain("${");

        // No class of the examples in any jar: the checkout domain, the functions, the quickstart.
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            for (Path jar : jars.toList()) {
                try (JarFile file = new JarFile(jar.toFile())) {
                    assertThat(file.stream().map(JarEntry::getName))
                            .as(jar.getFileName().toString())
                            .noneMatch(n -> n.startsWith("dev/redrive/checkout/")
                                    || n.startsWith("dev/redrive/functions/")
                                    || n.startsWith("com/example/"));
                }
            }
        }
    }

    @Test
    void helpAndVersionRunFromTheUnpackedDirectoryWithOnlyJavaHomeAndPathSet() throws Exception {
        Path home = unpack(tmp.resolve("unpacked"));
        Path elsewhere = Files.createDirectories(tmp.resolve("cwd"));
        String launcher = home.resolve("bin/redrive").toString();

        Result help = run(elsewhere, List.of(launcher, "--help"), Map.of());
        assertThat(help.exit).as(help.toString()).isZero();
        assertThat(help.out)
                .startsWith("Usage: redrive")
                .contains(COMMANDS)
                .contains("REDRIVE_SWEEPER_QUARANTINE_TABLE");

        Result version = run(elsewhere, List.of(launcher, "--version"), Map.of());
        assertThat(version.exit).as(version.toString()).isZero();
        assertThat(version.out.strip()).isEqualTo("redrive " + VERSION);

        // From bin/ itself, started by sh as a user might.
        Result fromBin = run(home.resolve("bin"), List.of("sh", "redrive", "--version"), Map.of());
        assertThat(fromBin.exit).as(fromBin.toString()).isZero();
        assertThat(fromBin.out.strip()).isEqualTo("redrive " + VERSION);
    }

    @Test
    void itRunsThroughSymlinksPlacedElsewhereAndFromThePath() throws Exception {
        Path home = unpack(tmp.resolve("opt"));
        // A relative link (ln -s ../../opt/redrive-cli-<v>/bin/redrive), and an absolute link to that link.
        Path relative = Files.createDirectories(tmp.resolve("usr/bin")).resolve("redrive");
        Files.createSymbolicLink(relative, relative.getParent().relativize(home.resolve("bin/redrive")));
        Path chained = Files.createDirectories(tmp.resolve("home/bin")).resolve("rd");
        Files.createSymbolicLink(chained, relative);

        for (Path link : List.of(relative, chained)) {
            Result help = run(tmp, List.of(link.toString(), "--help"), Map.of());
            assertThat(help.exit).as(link + ": " + help).isZero();
            assertThat(help.out).startsWith("Usage: redrive").contains(COMMANDS);
        }

        // Put on the PATH, found by name.
        Result onPath = run(
                tmp,
                List.of("sh", "-c", "redrive --version"),
                Map.of("PATH", relative.getParent() + ":" + System.getenv("PATH")));
        assertThat(onPath.exit).as(onPath.toString()).isZero();
        assertThat(onPath.out.strip()).isEqualTo("redrive " + VERSION);
    }

    @Test
    void exitCodesArgumentsAndJvmOptionsPassThrough() throws Exception {
        String launcher = unpack(tmp.resolve("unpacked")).resolve("bin/redrive").toString();

        Result noCommand = run(tmp, List.of(launcher), Map.of());
        assertThat(noCommand.exit).as(noCommand.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(noCommand.err).contains("redrive: name a command");

        // One argument holding a space arrives as one argument (a bad one: exit 2 before any AWS call).
        Result badDuration = run(tmp, List.of(launcher, "list", "--older-than", "two hours"), Map.of());
        assertThat(badDuration.exit).as(badDuration.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(badDuration.err).contains("'two hours' is not a duration");

        // Both variables reach the JVM, each split into its options; -XshowSettings lists the properties on stderr.
        Result options = run(
                tmp,
                List.of(launcher, "--version"),
                Map.of(
                        "JAVA_OPTS", "-Dredrive.it.java-opts=yes -Dredrive.it.second=2",
                        "REDRIVE_CLI_OPTS", "-Dredrive.it.cli-opts=yes -XshowSettings:properties"));
        assertThat(options.exit).as(options.toString()).isZero();
        assertThat(options.out.strip()).isEqualTo("redrive " + VERSION);
        assertThat(options.err)
                .contains("redrive.it.java-opts = yes", "redrive.it.second = 2", "redrive.it.cli-opts = yes");
    }

    @Test
    void anOldOrMissingJavaIsRefusedByName() throws Exception {
        String launcher = unpack(tmp.resolve("unpacked")).resolve("bin/redrive").toString();
        Path oldJava = Files.createDirectories(tmp.resolve("jdk8/bin")).resolve("java");
        Files.writeString(oldJava, "#!/bin/sh\necho 'java version \"1.8.0_381\"' >&2\n");
        assertThat(oldJava.toFile().setExecutable(true)).isTrue();

        Result old = run(
                tmp,
                List.of(launcher, "--help"),
                Map.of("JAVA_HOME", tmp.resolve("jdk8").toString()));
        assertThat(old.exit).as(old.toString()).isEqualTo(ExitCodes.CONFIG);
        assertThat(old.out).isEmpty();
        assertThat(old.err).contains("Java 17 or later is needed", oldJava + " is Java 1.8.0_381");

        Result missing = run(
                tmp,
                List.of(launcher, "--help"),
                Map.of("JAVA_HOME", tmp.resolve("nojdk").toString()));
        assertThat(missing.exit).as(missing.toString()).isEqualTo(ExitCodes.CONFIG);
        assertThat(missing.err).contains("JAVA_HOME is '" + tmp.resolve("nojdk") + "'");
    }

    /** Unpacks the tar.gz with tar, as a user does, into {@code dir}; returns the distribution's directory. */
    private Path unpack(Path dir) throws Exception {
        Files.createDirectories(dir);
        Result untar = run(dir, List.of("tar", "-xzf", TAR.toString(), "-C", dir.toString()), Map.of());
        assertThat(untar.exit).as(untar.toString()).isZero();
        return dir.resolve(TOP);
    }

    /**
     * Runs {@code command} in {@code dir} with an environment of only {@code JAVA_HOME} (this JVM's) and {@code PATH},
     * then {@code env}.
     */
    private Result run(Path dir, List<String> command, Map<String, String> env) throws Exception {
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().clear();
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("PATH", System.getenv("PATH"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish in 60s");
        }
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** The entries naming files (not directories), sorted. */
    private static List<String> files(Stream<String> entries) {
        List<String> files = new ArrayList<>(
                entries.filter(e -> !e.isBlank() && !e.endsWith("/")).toList());
        Collections.sort(files);
        return files;
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }
}
