package dev.redrive.localrun.lambda;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One Lambda sandbox: a child process of the artifact polling its own Runtime API. One invocation at a time; after a
 * timeout or a crash it is replaced, as Lambda resets a sandbox.
 *
 * <p>A process that ends without being asked to is seen at once, not at the next timeout: during init it fails the
 * start (and the pool replaces it), during an invocation the invocation ends with {@code Runtime.ExitError}, as on
 * Lambda. Either way its exit is reported with its reason and the tail of its log.
 */
public final class FunctionInstance implements AutoCloseable {

    /** Starts in a row that may end before the first poll before the function counts as unable to start. */
    static final int START_ATTEMPTS = 3;
    /** The longest an invocation waits for a frozen sandbox to thaw before the sandbox is replaced. */
    static final Duration FROZEN_AT_MOST = Duration.ofMinutes(2);

    private final String functionName;
    private final int number;
    private final FunctionArtifact artifact;
    private final ManagedJavaRuntime runtime;
    private final String handler;
    private final SandboxSpec spec;
    private final Path sandboxDir;
    private final Path log;
    private final String functionArn;
    private final Consumer<SandboxExit> exits;
    private volatile LambdaRuntimeApi api;
    private volatile Process process;
    /** Set before this program ends the current process itself, so that its exit is not reported as a death. */
    private volatile AtomicBoolean stopping = new AtomicBoolean();
    /** Set when an injected fault kills the current process: its exit ends the invocation but is no death. */
    private AtomicBoolean injectedKill = new AtomicBoolean();
    /** The current process is about to be killed by an injected fault: nothing more it sends is taken. */
    private volatile boolean doomed;

    private final SandboxFreeze freeze = new SandboxFreeze();
    private final Object killLock = new Object();
    private final AtomicLong injectedKills = new AtomicLong();
    private volatile SandboxListener listener = SandboxListener.NONE;
    /** Counts the processes this slot has started: faults aimed at one process never strike its successor. */
    private volatile long generation;

    private volatile long invocationTimeoutMillis = 60_000;
    /** Per process started: its init (start to first poll) and its first invocation, in milliseconds. */
    private final List<Long> initMillis = new CopyOnWriteArrayList<>();

    private final List<Long> firstInvocationMillis = new CopyOnWriteArrayList<>();
    private volatile boolean firstInvocationPending;

    private Duration initDuration = Duration.ZERO;
    private long processStartedNanos;
    private volatile Duration startToFirstResponse;

    public FunctionInstance(
            SandboxSpec spec, int number, ManagedJavaRuntime runtime, Path log, Consumer<SandboxExit> exits) {
        this.spec = spec;
        this.functionName = spec.functionName();
        this.functionArn = spec.functionArn();
        this.artifact = spec.artifact();
        this.handler = spec.handler();
        this.number = number;
        this.runtime = runtime;
        this.log = log.toAbsolutePath().normalize();
        this.sandboxDir = this.log.resolveSibling("sandboxes").resolve(functionName + "-" + number);
        this.exits = exits;
    }

    /**
     * Starts the process and waits until it polls for work (its cold start). A process that ends before its first
     * poll is replaced, up to {@link #START_ATTEMPTS} times in a row; then the function cannot start.
     */
    public synchronized void start(Duration initTimeout) {
        artifact.startProblem(handler()).ifPresent(problem -> {
            throw new FunctionCannotStart(functionName, problem);
        });
        SandboxStartFailure last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                startOnce(initTimeout);
                return;
            } catch (SandboxStartFailure e) {
                last = e;
            }
        }
        throw new FunctionCannotStart(functionName, START_ATTEMPTS, last);
    }

    private void startOnce(Duration initTimeout) {
        long t0 = System.nanoTime();
        AtomicBoolean expected = new AtomicBoolean();
        AtomicBoolean injected = new AtomicBoolean();
        stopping = expected;
        injectedKill = injected;
        try {
            api = new LambdaRuntimeApi(functionArn);
            api.onEventTaken(() -> listener.eventTaken(this));
            api.refuseAnswersWhile(() -> doomed);
            Path tmp = freshTmp();
            ProcessBuilder pb = spec.process(runtime, tmp, api.address(), List.of(), sandboxDir, log);
            processStartedNanos = System.nanoTime();
            Process started = pb.start();
            synchronized (killLock) {
                generation++;
                doomed = false;
                process = started;
            }
            LambdaRuntimeApi mine = api;
            started.onExit().thenAccept(p -> exited(p, mine, expected, injected));
            CompletableFuture.anyOf(api.ready(), started.onExit()).get(initTimeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!api.ready().isDone()) {
                SandboxExit exit = exitOf(started, "init");
                close();
                exits.accept(exit);
                throw new SandboxStartFailure(exit.describe(), null);
            }
            api.ready().get();
            initDuration = Duration.ofNanos(System.nanoTime() - t0);
            initMillis.add(initDuration.toMillis());
            firstInvocationPending = true;
        } catch (IOException e) {
            close();
            throw new IllegalStateException("could not start function " + functionName + ": " + e.getMessage(), e);
        } catch (TimeoutException e) {
            close();
            throw new SandboxStartFailure(
                    functionName + " did not poll the Runtime API within " + initTimeout.toSeconds() + " s; see " + log,
                    e);
        } catch (ExecutionException e) {
            close();
            throw new SandboxStartFailure(
                    functionName + " failed to initialize: " + e.getCause().getMessage() + "; see " + log, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while starting " + functionName, e);
        }
    }

    /** The function's handler setting, as the managed runtime passes it to the runtime interface client. */
    private String handler() {
        return handler;
    }

    /** Every start gets an empty {@code /tmp} of its own, as a fresh Lambda sandbox does. */
    private Path freshTmp() {
        try {
            Files.createDirectories(sandboxDir);
            return Files.createTempDirectory(sandboxDir, "tmp-");
        } catch (IOException e) {
            throw new UncheckedIOException("could not create the sandbox folder " + sandboxDir, e);
        }
    }

    /** A death after the first poll (one before it is reported by the start that saw it). */
    private void exited(Process p, LambdaRuntimeApi itsApi, AtomicBoolean expected, AtomicBoolean injected) {
        if (expected.get() || !itsApi.ready().isDone()) {
            return;
        }
        freeze.ended();
        if (injected.get()) {
            itsApi.sandboxExited("{\"errorType\":\"Runtime.ExitError\",\"errorMessage\":\"RequestId: sandbox " + number
                    + " exited: signal 9 (SIGKILL, injected)\"}");
            return;
        }
        SandboxExit exit = exitOf(p, "invoke");
        // Recorded before the invocation is ended, so whoever the ExitError wakes up already finds the exit.
        exits.accept(exit);
        itsApi.sandboxExited("{\"errorType\":\"Runtime.ExitError\",\"errorMessage\":\"RequestId: sandbox " + number
                + " exited: " + exit.reason() + "\"}");
    }

    private SandboxExit exitOf(Process p, String phase) {
        int code;
        try {
            code = p.waitFor(5, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = -1;
        }
        return new SandboxExit(functionName, number, phase, code, Instant.now(), log, SandboxExit.tail(log));
    }

    /** Invokes; on a timeout or a dead process the sandbox is replaced before the next invocation. */
    public synchronized InvocationResult invoke(String payload, Duration timeout, Duration initTimeout) {
        InvocationResult result;
        invocationTimeoutMillis = timeout.toMillis();
        try {
            freeze.awaitRunning(FROZEN_AT_MOST);
            ensureRunning(initTimeout);
            long t0 = System.nanoTime();
            result = api.invoke(payload, timeout).get();
            if (firstInvocationPending) {
                firstInvocationPending = false;
                firstInvocationMillis.add((System.nanoTime() - t0) / 1_000_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new InvocationResult.Timeout(Duration.ZERO);
        } catch (ExecutionException e) {
            return new InvocationResult.FunctionError("RuntimeApi", e.getCause().getMessage(), Duration.ZERO);
        } catch (TimeoutException e) {
            close();
            return new InvocationResult.FunctionError("Runtime.Frozen", e.getMessage(), Duration.ZERO);
        }
        if (startToFirstResponse == null && result instanceof InvocationResult.Response) {
            startToFirstResponse = Duration.ofNanos(System.nanoTime() - processStartedNanos);
        }
        Process current = process;
        if (result instanceof InvocationResult.Timeout) {
            // Lambda ends a timed-out environment at once: a function without external extensions gets no SIGTERM
            // and no grace, so nothing of the handler runs past its deadline. The next invocation gets a fresh one.
            end(true);
        } else if (current == null || !current.isAlive()) {
            close(); // the next invocation gets a fresh sandbox
        } else {
            freeze.applyIfRequested(current); // Lambda freezes an environment once it has answered
        }
        return result;
    }

    /**
     * Fault injection: SIGKILL now. The invocation in flight ends at once with {@code Runtime.ExitError}, as when
     * a sandbox dies; the exit is counted as injected, not reported as a death; the next invocation starts a fresh
     * process. Anything the doomed process still sends is refused.
     */
    public void kill() {
        kill(generation);
    }

    /** {@link #kill()}, if the process running is still the one of {@code generation}. */
    public void kill(long generation) {
        synchronized (killLock) {
            if (generation != this.generation) {
                return;
            }
            doomed = true;
            Process p = process;
            if (p != null && p.isAlive()) {
                injectedKill.set(true);
                injectedKills.incrementAndGet();
                SandboxProcesses.kill(p); // gone, children included, before anyone asks whether it runs
            }
        }
    }

    /** Marks the process of {@code generation} as about to be killed: nothing it sends from now on is taken. */
    public void doom(long generation) {
        synchronized (killLock) {
            if (generation == this.generation) {
                doomed = true;
            }
        }
    }

    /** The process now running (a number that grows with every start of this slot). */
    public long generation() {
        return generation;
    }

    /** The timeout of the invocation in flight (or the last one). */
    public long invocationTimeoutMillis() {
        return invocationTimeoutMillis;
    }

    /**
     * Whether the process of {@code generation} still runs: it is the slot's current one, alive, and neither being
     * closed (a timeout or a replacement) nor doomed by an injected fault. A process that is not running any more
     * sends nothing more.
     */
    public boolean runs(long generation) {
        if (generation != this.generation) {
            return false;
        }
        Process p = process;
        return p != null && p.isAlive() && !stopping.get() && !doomed;
    }

    /** Whether the current process was doomed by an injected fault (its calls and its answers are refused). */
    public boolean doomed() {
        return doomed;
    }

    /**
     * Fault injection: once the invocation in flight has ended (the sandbox has answered), freeze the process
     * (SIGSTOP) until {@code until}, then thaw it (SIGCONT). Nothing is handed to it while frozen. Returns the
     * futures of the freeze being applied and of the sandbox running again (or being gone); null when a freeze is
     * already pending.
     */
    public Freeze freezeAfterInvocation(Instant until) {
        SandboxFreeze.Hold hold = freeze.request(until);
        return hold == null ? null : new Freeze(hold.applied(), hold.released());
    }

    /**
     * Fault injection: freeze the process of {@code generation} now, in the middle of its invocation (SIGSTOP), until
     * {@code until} (SIGCONT). The invocation's timeout still runs: a sandbox frozen past it is ended, as Lambda ends
     * an invocation at its timeout. Null when that process no longer runs or a freeze is already pending.
     */
    public Freeze freezeNow(long generation, Instant until) {
        Process p = process;
        if (!runs(generation)) {
            return null;
        }
        SandboxFreeze.Hold hold = freeze.freezeNow(p, until);
        return hold == null ? null : new Freeze(hold.applied(), hold.released());
    }

    /**
     * A requested freeze: {@code applied} completes true once the process is stopped, false when it never was (it
     * ended first, or could not be stopped); {@code released} once it runs again or is gone.
     */
    public record Freeze(CompletableFuture<Boolean> applied, CompletableFuture<Void> released) {}

    /** Thaws the sandbox now if it is frozen. */
    public void thaw() {
        freeze.thaw();
    }

    public boolean frozen() {
        return freeze.frozen();
    }

    /** Each process's init (start to first poll), in milliseconds, in the order started. */
    public List<Long> initMillis() {
        return List.copyOf(initMillis);
    }

    /** Each process's first invocation (cold), in milliseconds. */
    public List<Long> firstInvocationMillis() {
        return List.copyOf(firstInvocationMillis);
    }

    /** Processes of this sandbox killed by injected faults. */
    public long injectedKills() {
        return injectedKills.get();
    }

    /** Told when this sandbox takes an event from its Runtime API. */
    public void listener(SandboxListener listener) {
        this.listener = listener == null ? SandboxListener.NONE : listener;
    }

    public String functionName() {
        return functionName;
    }

    public int number() {
        return number;
    }

    /**
     * Hands the payload over and kills the sandbox the moment the function has taken it, before it can claim or
     * answer (as an out-of-memory while reading it would): Lambda reports Runtime.ExitError.
     */
    public synchronized InvocationResult crashWhileHandling(String payload, Duration initTimeout) {
        ensureRunning(initTimeout);
        long t0 = System.nanoTime();
        api.forgetDispatches();
        api.invoke(payload, Duration.ofSeconds(30));
        try {
            api.awaitDispatch(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopping.set(true); // an injected crash, not a sandbox dying by itself
        SandboxProcesses.kill(process);
        close();
        return new InvocationResult.FunctionError(
                "Runtime.ExitError",
                "{\"errorMessage\":\"sandbox exited while handling the batch (out of memory, simulated)\"}",
                Duration.ofNanos(System.nanoTime() - t0));
    }

    private void ensureRunning(Duration initTimeout) {
        if (process == null || !process.isAlive()) {
            close();
            start(initTimeout);
        }
    }

    /** The sandbox's process id, while it runs. */
    public long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
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
        end(false);
    }

    /** Ends the process: killed (SIGKILL) when {@code atOnce} or frozen, else asked to stop (SIGTERM, 5 s grace). */
    private synchronized void end(boolean atOnce) {
        stopping.set(true);
        boolean frozen = freeze.frozen();
        freeze.ended();
        if (process != null) {
            if (atOnce || frozen) {
                SandboxProcesses.kill(process); // a frozen sandbox would not see SIGTERM
            } else {
                SandboxProcesses.terminate(process, Duration.ofSeconds(5));
            }
            process = null;
        }
        if (api != null) {
            api.close();
            api = null;
        }
    }

    /** One start that ended before the sandbox's first poll. */
    static final class SandboxStartFailure extends RuntimeException {
        SandboxStartFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The function cannot start: its artifact cannot run its handler, or its sandboxes end before their first poll
     * every time. The run cannot go on.
     */
    public static final class FunctionCannotStart extends IllegalStateException {
        FunctionCannotStart(String function, String problem) {
            super("function " + function + " cannot start: " + problem);
        }

        FunctionCannotStart(String function, int attempts, RuntimeException last) {
            super(
                    "function " + function + " cannot start: " + attempts + " sandboxes in a row ended before "
                            + "their first poll of the Runtime API; the last: " + last.getMessage(),
                    last);
        }
    }
}
