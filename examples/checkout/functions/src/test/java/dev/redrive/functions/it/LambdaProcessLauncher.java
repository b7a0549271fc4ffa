package dev.redrive.functions.it;

import io.quarkus.test.common.ArtifactLauncher;
import io.quarkus.test.common.ListeningAddress;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Starts a packaged function as a Lambda runtime does and copies its output to the test's standard output, line by
 * line, where the tests read the EMF lines: the process polls the Runtime API at {@code AWS_LAMBDA_RUNTIME_API}, here
 * Quarkus' mock event server (started by the test on a free port) behind a {@link DeadlineHeaderProxy}, with the
 * environment Lambda sets. Subclasses say which command starts the artifact.
 */
abstract class LambdaProcessLauncher implements ArtifactLauncher<ArtifactLauncher.InitContext> {

    static final String HANDLER = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";
    private static final String RUNTIME_API = "quarkus-internal.aws-lambda.test-api";
    private static final long START_TIMEOUT_SECONDS = 180;

    private final Path work;
    private final Map<String, String> properties = new TreeMap<>();
    private Process process;
    private DeadlineHeaderProxy runtimeApiProxy;

    LambdaProcessLauncher(Path buildOutput, Map<String, String> devServices) {
        this.work = buildOutput.resolve("lambda-it");
        this.properties.putAll(devServices);
    }

    /**
     * The command that starts the artifact, given the configuration to pass as system properties (the profile's
     * overrides and the dev services' properties) and a working directory under {@code target/} it may write to.
     */
    abstract List<String> command(Map<String, String> systemProperties, Path work) throws IOException;

    /** What the artifact is, for error messages: "the packaged function under the runtime interface client". */
    abstract String description();

    @Override
    public void init(InitContext context) {
        // configured by the provider
    }

    @Override
    public void includeAsSysProps(Map<String, String> systemProps) {
        properties.putAll(systemProps);
    }

    @Override
    public Optional<ListeningAddress> start() throws IOException {
        String runtimeApi = properties.get(RUNTIME_API);
        if (runtimeApi == null) {
            throw new IllegalStateException("no " + RUNTIME_API + ": the mock event server did not start");
        }
        Files.createDirectories(work);
        Map<String, String> systemProperties = new TreeMap<>(properties);
        systemProperties.putIfAbsent("quarkus.profile", "prod");
        ProcessBuilder builder = new ProcessBuilder(command(systemProperties, work)).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        // the mock server's address would do, but it sends no deadline; the proxy adds it, as Lambda would
        runtimeApiProxy = new DeadlineHeaderProxy(runtimeApi.replace("/_lambda_", ""));
        env.put("AWS_LAMBDA_RUNTIME_API", runtimeApiProxy.address() + "/_lambda_");
        env.put("AWS_LAMBDA_FUNCTION_NAME", "redrive-it");
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "1024");
        env.put("_HANDLER", HANDLER);
        process = builder.start();
        CountDownLatch started = new CountDownLatch(1);
        Thread output = new Thread(() -> drain(started), "lambda-it-output");
        output.setDaemon(true);
        output.start();
        try {
            boolean up = started.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!process.isAlive()) {
                close();
                throw new IllegalStateException(description() + " exited with code " + process.exitValue()
                        + " before it started (see its output above)");
            }
            if (!up) {
                close();
                throw new IllegalStateException(
                        description() + " did not start within " + START_TIMEOUT_SECONDS + " s (see its output above)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while the function started", e);
        }
        return Optional.empty();
    }

    /**
     * Copies the output to the test's current standard output and opens the latch once Quarkus says it started, or
     * the process says it failed.
     */
    private void drain(CountDownLatch started) {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                System.out.println(line);
                if (line.contains(" started in ")) {
                    started.countDown();
                } else if (line.startsWith("Exception in thread \"main\"")) {
                    process.destroy();
                    started.countDown();
                }
            }
        } catch (IOException e) {
            if (process.isAlive()) {
                throw new UncheckedIOException("reading the function's output while it runs", e);
            }
            // the process went away: its stream closed under the reader
        } finally {
            started.countDown();
        }
    }

    @Override
    public LaunchResult runToCompletion(String[] args) {
        throw new UnsupportedOperationException("a Lambda function does not run to completion");
    }

    @Override
    public void close() {
        stopProcess();
        if (runtimeApiProxy != null) {
            runtimeApiProxy.close();
        }
    }

    private void stopProcess() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
