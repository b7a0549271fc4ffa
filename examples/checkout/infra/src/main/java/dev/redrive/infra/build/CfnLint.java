package dev.redrive.infra.build;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs cfn-lint, informational checks included ({@code --include-checks I}), on a synthesized template for the build's
 * {@code verify} phase: fails on errors (cfn-lint exit bits 1 and 2) and on any SnapStart finding ({@value
 * #SNAPSTART_RULES}: a Java function without SnapStart, SnapStart without a published version, SnapStart on a runtime
 * that does not support it); passes on other warnings and informational findings (bits 4 and 8). Uses {@code <python> -m cfnlint} with the
 * interpreter the build chose ({@code redrive.python}: the project's {@code .venv/} when
 * {@code bin/check-prerequisites --install} made it), else {@code cfn-lint} from the PATH; when neither exists it fails
 * and says how to install it or skip the check.
 */
public final class CfnLint {

    private static final int FATAL_OR_ERROR = 0b11;

    /** cfn-lint's SnapStart rules: I2530 (Java without SnapStart), W2530 (no version), E2530 (runtime). */
    static final String SNAPSTART_RULES = "I2530, W2530, E2530";

    private static final Pattern SNAPSTART_FINDING = Pattern.compile("\\b[IWE]2530\\b");

    /**
     * What cfn-lint said of a template.
     *
     * @param exit   its exit code (bits: 1 fatal, 2 error, 4 warning, 8 informational)
     * @param output what it printed
     */
    public record Findings(int exit, String output) {

        /** The lines that name a SnapStart rule. */
        public List<String> snapStart() {
            List<String> lines = new ArrayList<>();
            for (String line : output.split("\\R")) {
                Matcher m = SNAPSTART_FINDING.matcher(line);
                if (m.find()) {
                    lines.add(line);
                }
            }
            return lines;
        }
    }

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
        Findings findings = lint(template);
        System.out.print(findings.output());
        int exit = findings.exit();
        if ((exit & FATAL_OR_ERROR) != 0) {
            throw new IllegalStateException(
                    "cfn-lint found errors in " + template + " (exit " + exit + "); see its output above");
        }
        if (!findings.snapStart().isEmpty()) {
            throw new IllegalStateException("cfn-lint found SnapStart notices in " + template + " ("
                    + String.join("; ", findings.snapStart()) + "): every JVM function must run SnapStart on a "
                    + "published version (FunctionFactory does this), and no other runtime may");
        }
        System.out.println("[cfn-lint] " + template.getFileName() + ": no errors, no SnapStart notice"
                + ((exit & 0b1100) != 0 ? " (other warnings or informational findings above)" : ""));
    }

    /** Runs cfn-lint with its informational checks on {@code template}; throws if cfn-lint is not installed. */
    public static Findings lint(Path template) throws IOException, InterruptedException {
        return lint(List.of(template));
    }

    /**
     * Runs cfn-lint with its informational checks on every one of {@code templates} in one process (its start, about a
     * second of Python imports, is paid once); its exit code is the union of the findings' bits over all of them, and
     * each finding's location line names its file. Throws if cfn-lint is not installed.
     */
    public static Findings lint(List<Path> templates) throws IOException, InterruptedException {
        if (templates.isEmpty()) {
            throw new IllegalArgumentException("no template to lint");
        }
        List<String> command = new ArrayList<>(findCfnLint()
                .orElseThrow(() -> new IllegalStateException(
                        "cfn-lint is not installed (neither '<python> -m cfnlint' nor 'cfn-lint' on the PATH works): "
                                + "run bin/check-prerequisites --install, or pip install cfn-lint, or skip the "
                                + "template lint with -Dcfn-lint.skip")));
        command.add("--include-checks");
        command.add("I");
        command.add("--");
        templates.forEach(template -> command.add(template.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Findings(process.waitFor(), output);
    }

    /** The command that runs cfn-lint here, if any; looked for once per JVM (each probe starts Python). */
    public static synchronized Optional<List<String>> findCfnLint() throws InterruptedException {
        if (found == null) {
            found = probeCfnLint();
        }
        return found;
    }

    private static Optional<List<String>> found;

    private static Optional<List<String>> probeCfnLint() throws InterruptedException {
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
