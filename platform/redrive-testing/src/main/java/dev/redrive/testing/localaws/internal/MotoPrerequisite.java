package dev.redrive.testing.localaws.internal;

import dev.redrive.testing.localaws.LocalAwsException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Checks that a Python 3 with moto's server is there, failing with the prerequisite named. {@link MotoServer} runs it
 * when its launcher exits before it is ready (at once, when Python or moto is missing), so a missing prerequisite is
 * named at once, never with a timeout.
 */
public final class MotoPrerequisite {

    public static final String INSTALL_HINT = "Redrive's local AWS serves DynamoDB and S3 with moto: run "
            + "bin/check-prerequisites --install (a project-local .venv/ with the pinned moto[server]), or install it "
            + "into your Python 3 with  pip install 'moto[server]', or set AWS_ENDPOINT_URL to a running LocalStack "
            + "(see docs/getting-started.md#prerequisites).";

    /**
     * The Pythons this JVM has found moto's server usable with: by this check, or by a moto launcher that came up
     * ready ({@link #usable}). The check imports moto (about a second of CPU, many on a loaded machine), and a test JVM
     * starts moto and moto's scripts several times over: it runs at most once per Python. A failure is not remembered,
     * so a Python fixed meanwhile is seen.
     */
    private static final Set<String> USABLE = ConcurrentHashMap.newKeySet();

    /** Records that {@code python} served moto (its launcher came up ready): {@link #check} passes for it at once. */
    static void usable(String python) {
        USABLE.add(python);
    }

    private MotoPrerequisite() {}

    /**
     * The Python executable to use: {@code REDRIVE_PYTHON} if set, else the system property {@code redrive.python},
     * else {@code python3}. The build and the {@code bin/} scripts set one of them to what
     * {@code bin/check-prerequisites --python} chooses (the project's {@code .venv/} when it exists).
     */
    public static String python() {
        String configured = System.getenv("REDRIVE_PYTHON");
        if (configured == null || configured.isBlank()) {
            configured = System.getProperty("redrive.python");
        }
        return configured == null || configured.isBlank() ? "python3" : configured;
    }

    /**
     * Fails with the prerequisite named unless {@code python} is a Python 3 with moto's server; once it passed for
     * {@code python}, it passes again at once in this JVM.
     */
    public static void check(String python) {
        if (USABLE.contains(python)) {
            return;
        }
        Process p;
        try {
            p = new ProcessBuilder(List.of(
                            python,
                            "-c",
                            "import sys; assert sys.version_info >= (3, 8), sys.version;"
                                    + " import moto, moto.server, flask, werkzeug; print(moto.__version__)"))
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new LocalAwsException("'" + python + "' was not found on the PATH. " + INSTALL_HINT, e);
        }
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new LocalAwsException(
                        "'" + python + " -c \"import moto\"' did not finish in 60 s. " + INSTALL_HINT);
            }
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                String last = output.lines().reduce((a, b) -> b).orElse("(no output)");
                throw new LocalAwsException(
                        "moto[server] is not usable with '" + python + "': " + last + ". " + INSTALL_HINT);
            }
            USABLE.add(python);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalAwsException("interrupted while checking for moto", e);
        } catch (IOException e) {
            throw new LocalAwsException("could not read the output of '" + python + "'", e);
        }
    }
}
