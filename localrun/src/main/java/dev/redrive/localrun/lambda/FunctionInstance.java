package dev.redrive.localrun.lambda;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One Lambda sandbox: a child process of the artifact polling its own Runtime API. One invocation at a time; after a
 * timeout or a crash it is replaced, as Lambda resets a sandbox.
 */
public final class FunctionInstance implements AutoCloseable {

    private final String functionName;
    private final FunctionArtifact artifact;
    private final Map<String, String> environment;
    private final Path log;
    private final String functionArn;
    private LambdaRuntimeApi api;
    private Process process;
    private Duration initDuration = Duration.ZERO;
    private long processStartedNanos;
    private volatile Duration startToFirstResponse;

    public FunctionInstance(
            String functionName,
            String functionArn,
            FunctionArtifact artifact,
            Map<String, String> environment,
            Path log) {
        this.functionName = functionName;
        this.functionArn = functionArn;
        this.artifact = artifact;
        this.environment = Map.copyOf(environment);
        this.log = log;
    }

    /** Starts the process and waits until it polls for work (its cold start). */
    public synchronized void start(Duration initTimeout) {
        long t0 = System.nanoTime();
        try {
            api = new LambdaRuntimeApi(functionArn);
            ProcessBuilder pb = new ProcessBuilder(artifact.command());
            Map<String, String> env = pb.environment();
            env.putAll(environment);
            env.put("AWS_LAMBDA_RUNTIME_API", api.address());
            env.put("AWS_LAMBDA_FUNCTION_NAME", functionName);
            env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
            env.put("_HANDLER", environment.getOrDefault("_HANDLER", FunctionArtifact.JVM_HANDLER));
            pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            processStartedNanos = System.nanoTime();
            process = pb.start();
            api.ready().get(initTimeout.toMillis(), TimeUnit.MILLISECONDS);
            initDuration = Duration.ofNanos(System.nanoTime() - t0);
        } catch (IOException e) {
            throw new IllegalStateException("could not start function " + functionName + ": " + e.getMessage(), e);
        } catch (TimeoutException e) {
            close();
            throw new IllegalStateException(
                    "function " + functionName + " did not poll the Runtime API within " + initTimeout.toSeconds()
                            + " s; see " + log,
                    e);
        } catch (ExecutionException e) {
            close();
            throw new IllegalStateException(
                    "function " + functionName + " failed to initialize: "
                            + e.getCause().getMessage() + "; see " + log,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while starting " + functionName, e);
        }
    }

    /** Invokes; on a timeout or a dead process the sandbox is replaced before the next invocation. */
    public synchronized InvocationResult invoke(String payload, Duration timeout, Duration initTimeout) {
        if (process == null || !process.isAlive()) {
            close();
            start(initTimeout);
        }
        InvocationResult result;
        try {
            result = api.invoke(payload, timeout).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new InvocationResult.Timeout(Duration.ZERO);
        } catch (ExecutionException e) {
            return new InvocationResult.FunctionError("RuntimeApi", e.getCause().getMessage(), Duration.ZERO);
        }
        if (startToFirstResponse == null && result instanceof InvocationResult.Response) {
            startToFirstResponse = Duration.ofNanos(System.nanoTime() - processStartedNanos);
        }
        if (result instanceof InvocationResult.Timeout || !process.isAlive()) {
            close(); // the next invocation gets a fresh sandbox
        }
        return result;
    }

    /**
     * Hands the payload over and kills the sandbox the moment the function has taken it, before it can claim or
     * answer (as an out-of-memory while reading it would): Lambda reports Runtime.ExitError.
     */
    public synchronized InvocationResult crashWhileHandling(String payload, Duration initTimeout) {
        if (process == null || !process.isAlive()) {
            close();
            start(initTimeout);
        }
        long t0 = System.nanoTime();
        api.forgetDispatches();
        api.invoke(payload, Duration.ofSeconds(30));
        try {
            api.awaitDispatch(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
        close();
        return new InvocationResult.FunctionError(
                "Runtime.ExitError",
                "{\"errorMessage\":\"sandbox exited while handling the batch (out of memory, simulated)\"}",
                Duration.ofNanos(System.nanoTime() - t0));
    }

    /** From process start to the first response it gave (JVM start-up, init, first event), once known. */
    public Duration startToFirstResponse() {
        return startToFirstResponse;
    }

    public Duration initDuration() {
        return initDuration;
    }

    @Override
    public synchronized void close() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            process = null;
        }
        if (api != null) {
            api.close();
            api = null;
        }
    }
}
