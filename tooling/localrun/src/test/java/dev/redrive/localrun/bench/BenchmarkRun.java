package dev.redrive.localrun.bench;

import dev.redrive.localrun.RunOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** What the local run's benchmarks share: their run folder, their run's options, the machine's load. */
public final class BenchmarkRun {

    private BenchmarkRun() {}

    /** A new folder of its own under {@code tooling/localrun/target/benchmark}, named from {@code prefix}. */
    static Path folder(String prefix) throws IOException {
        Path work = Files.createDirectories(Path.of("tooling", "localrun", "target", "benchmark"));
        return Files.createTempDirectory(work.toAbsolutePath(), prefix);
    }

    /**
     * Options of a run that only provisions ({@code LocalSystem.provisioned}): the template and artifact given, its
     * logs in {@code runDir}, with or without the local run's class-data archive.
     */
    public static RunOptions options(Path template, Path functionsDir, Path runDir, boolean classDataArchive) {
        return new RunOptions(
                "basic",
                0,
                0,
                0,
                0,
                1,
                Optional.empty(),
                template,
                functionsDir,
                1,
                6,
                runDir,
                20261205L,
                Optional.empty(),
                classDataArchive);
    }

    /** The machine's load averages and cores, as one line. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2] + " (1, 5, 15 min), "
                    + Runtime.getRuntime().availableProcessors() + " cores";
        } catch (IOException e) {
            return "unknown";
        }
    }
}
