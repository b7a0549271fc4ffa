package dev.redrive.functions.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the packaged native executable ({@code -Pnative}) as Lambda's {@code provided.al2023} runtime runs its
 * {@code bootstrap}: no JVM, no flags; the binary's own Quarkus poll loop polls the Runtime API. Unlike Quarkus' native
 * launcher, it hands the process's standard output to the test's (see {@link LambdaProcessLauncher}), where the EMF
 * lines are. The configuration goes in as {@code -D} arguments, which a Quarkus native executable reads as system
 * properties.
 */
final class NativeBinaryLauncher extends LambdaProcessLauncher {

    private final Path executable;

    NativeBinaryLauncher(Path executable, Path buildOutput, Map<String, String> devServices) {
        super(buildOutput, devServices);
        this.executable = executable;
    }

    @Override
    List<String> command(Map<String, String> systemProperties, Path work) {
        if (!Files.isExecutable(executable)) {
            throw new IllegalStateException("the native artifact " + executable + " is not an executable file: build it"
                    + " with -Pnative (see docs/internals/native.md)");
        }
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        systemProperties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        return command;
    }

    @Override
    String description() {
        return "the native executable " + executable.getFileName();
    }
}
