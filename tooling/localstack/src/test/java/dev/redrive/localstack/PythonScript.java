package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.testing.localaws.internal.MotoPrerequisite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A script of {@code src/test/python} run with moto's python (checked first), its stdout and stderr in one text. */
final class PythonScript {

    /** How a run ended: its exit value and everything it printed. */
    record Run(int exitValue, String output) {}

    private PythonScript() {}

    static Run run(String script, Duration timeout, String... arguments) throws IOException, InterruptedException {
        String python = MotoPrerequisite.python();
        MotoPrerequisite.check(python);
        List<String> command = new ArrayList<>(
                List.of(python, Path.of("src", "test", "python", script).toString()));
        command.addAll(List.of(arguments));
        Path output = Files.createTempFile("redrive-" + script.replace(".py", "") + "-", ".txt");
        try {
            Process run = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            boolean finished = run.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
            if (!finished) {
                run.destroyForcibly();
            }
            assertThat(finished).as("%s finished within %s", script, timeout).isTrue();
            return new Run(run.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
