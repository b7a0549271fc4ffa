package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/check-prerequisites}: what a newcomer sees first. */
class PrerequisiteCheckTest {

    static final Path SCRIPT = Path.of("..", "..").toAbsolutePath().normalize().resolve("bin/check-prerequisites");

    @TempDir
    Path dir;

    @Test
    void withoutPythonItPrintsOneLineNamingWhatIsMissingAndHowToGetItAndExitsTwo() throws Exception {
        Path bin = pathWithout("python", "pip", "cfn-lint");

        Result r = run(List.of(SCRIPT.toString()), Map.of("PATH", bin.toString(), "HOME", dir.toString()));

        assertThat(r.exit).isEqualTo(2);
        assertThat(r.stdout).isEmpty();
        assertThat(r.stderr.lines().toList())
                .singleElement()
                .satisfies(line -> assertThat(line)
                        .startsWith("redrive: missing prerequisite: Python 3")
                        .contains("apt-get install python3 python3-venv")
                        .contains("bin/check-prerequisites --install"));
    }

    @Test
    void withoutChromiumOrItsDriverItNamesEachAndHowToInstallThemAndExitsTwo() throws Exception {
        Map<String, String> env = Map.of(
                "PATH", System.getenv("PATH"),
                "HOME", dir.toString(),
                "REDRIVE_CHROMIUM", dir.resolve("no-chromium").toString(),
                "REDRIVE_CHROMEDRIVER", dir.resolve("no-chromedriver").toString());

        Result r = run(List.of(SCRIPT.toString()), env);

        assertThat(r.exit).isEqualTo(2);
        assertThat(r.stderr.lines().toList())
                .hasSize(2)
                .satisfiesExactly(
                        line -> assertThat(line)
                                .startsWith("redrive: missing prerequisite: Chromium at " + dir.resolve("no-chromium"))
                                .contains("apt-get install chromium chromium-driver"),
                        line -> assertThat(line)
                                .startsWith("redrive: missing prerequisite: ChromeDriver at "
                                        + dir.resolve("no-chromedriver"))
                                .contains("apt-get install chromium-driver"));
    }

    @Test
    void thePythonItChoosesIsRedrivePythonThenTheProjectVirtualenvThenPython3() throws Exception {
        Path project = dir.resolve("project");
        Files.createDirectories(project.resolve("bin"));
        Files.copy(SCRIPT, project.resolve("bin/check-prerequisites"));
        Map<String, String> env = Map.of("PATH", System.getenv("PATH"));
        List<String> python = List.of(project.resolve("bin/check-prerequisites").toString(), "--python");

        assertThat(run(python, env).stdout.strip()).isEqualTo("python3");

        Path venvPython = project.resolve(".venv/bin/python");
        Files.createDirectories(venvPython.getParent());
        Files.writeString(venvPython, "#!/bin/sh\n");
        Files.setPosixFilePermissions(venvPython, PosixFilePermissions.fromString("rwx------"));
        assertThat(run(python, env).stdout.strip()).isEqualTo(venvPython.toString());

        assertThat(run(python, Map.of("PATH", System.getenv("PATH"), "REDRIVE_PYTHON", "/opt/py/bin/python3"))
                        .stdout
                        .strip())
                .isEqualTo("/opt/py/bin/python3");
    }

    /** A directory of links to every program on this PATH but those whose names start with one of {@code hidden}. */
    private Path pathWithout(String... hidden) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String entry : System.getenv("PATH").split(File.pathSeparator)) {
            Path d = Path.of(entry);
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (var programs = Files.list(d)) {
                for (Path p : programs.toList()) {
                    String name = p.getFileName().toString();
                    boolean hide = List.of(hidden).stream().anyMatch(name::startsWith);
                    if (!hide && Files.isExecutable(p) && !Files.exists(bin.resolve(name))) {
                        Files.createSymbolicLink(bin.resolve(name), p.toAbsolutePath());
                    }
                }
            }
        }
        return bin;
    }

    record Result(int exit, String stdout, String stderr) {}

    private Result run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command));
        pb.environment().clear();
        pb.environment().putAll(env);
        Path out = dir.resolve("out-" + System.nanoTime());
        Path err = dir.resolve("err-" + System.nanoTime());
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("finished").isTrue();
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
