package dev.redrive.infra.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs cfn-lint on a synthesized template for the build's {@code verify} phase: fails on errors (cfn-lint exit bits 1
 * and 2), passes on warnings and informational findings (bits 4 and 8). Uses {@code <python> -m cfnlint} with the
 * interpreter the build chose ({@code redrive.python}: the project's {@code .venv/} when
 * {@code bin/check-prerequisites --install} made it), else {@code cfn-lint} from the PATH; when neither exists it fails
 * and says how to install it or skip the check.
 */
public final class CfnLint {

    private static final int FATAL_OR_ERROR = 0b11;

    private CfnLint() {}

    /** {@code args[0]}: the template. Throws (failing the Maven execution) on lint errors or a missing cfn-lint. */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: CfnLint <template.json>");
        }
        Path template = Path.of(args[0]);
        if (!Files.isRegularFile(template)) {
            throw new IllegalStateException("no template at " + template
                    + ": synthesize it first (./mvnw -pl examples/checkout/infra " + "package)");
        }
        List<String> command = new ArrayList<>(findCfnLint()
                .orElseThrow(() -> new IllegalStateException(
                        "cfn-lint is not installed (neither '<python> -m cfnlint' nor 'cfn-lint' on the PATH works): "
                                + "run bin/check-prerequisites --install, or pip install cfn-lint, or skip the "
                                + "template lint with -Dcfn-lint.skip")));
        command.add(template.toString());
        Process process = new ProcessBuilder(command).inheritIO().start();
        int exit = process.waitFor();
        if ((exit & FATAL_OR_ERROR) != 0) {
            throw new IllegalStateException(
                    "cfn-lint found errors in " + template + " (exit " + exit + "); see its output above");
        }
        System.out.println("[cfn-lint] " + template.getFileName() + ": no errors"
                + ((exit & 0b100) != 0 ? " (warnings above)" : ""));
    }

    /** The command that runs cfn-lint here, if any. */
    static Optional<List<String>> findCfnLint() throws InterruptedException {
        String python = System.getProperty("redrive.python", System.getenv().getOrDefault("REDRIVE_PYTHON", "python3"));
        for (List<String> candidate : List.of(List.of(python, "-m", "cfnlint"), List.of("cfn-lint"))) {
            List<String> probe = new ArrayList<>(candidate);
            probe.add("--version");
            try {
                Process process = new ProcessBuilder(probe)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                if (process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0) {
                    return Optional.of(candidate);
                }
                process.destroyForcibly();
            } catch (IOException notFound) {
                // not on the PATH: try the next candidate
            }
        }
        return Optional.empty();
    }
}
