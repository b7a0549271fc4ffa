package dev.redrive.localrun.lambda;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Freezing a sandbox's processes (SIGSTOP to its whole tree, {@link SandboxProcesses}) and thawing it (SIGCONT), as Lambda freezes an execution environment between
 * invocations and as a long GC pause stops a JVM: while frozen, none of its threads runs, its sockets stay open, and
 * whatever was sent to it waits in them.
 *
 * <p>One freeze at a time: {@link #request} asks for a freeze when the current invocation has ended (so that the
 * sandbox has posted its response, as on Lambda), {@link #applyIfRequested} applies it, and the thaw comes at the
 * requested instant, or earlier by {@link #thaw}. {@link #released()} completes at the thaw, or when the process
 * ends frozen (a frozen sandbox that is closed is killed, not thawed).
 */
final class SandboxFreeze {

    private static final ScheduledExecutorService THAWS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sandbox-thaw");
        t.setDaemon(true);
        return t;
    });

    /** A requested freeze: {@code applied} completes once the process is stopped (true) or cannot be, or ended first
     * (false); {@code released} once it runs again (or is gone). */
    record Hold(CompletableFuture<Boolean> applied, CompletableFuture<Void> released) {}

    private Instant requestedUntil;
    private CompletableFuture<Boolean> applied = CompletableFuture.completedFuture(false);
    private CompletableFuture<Void> released = CompletableFuture.completedFuture(null);
    private Process frozen;
    /** The frozen sandbox's processes, its bootstrap first. */
    private List<ProcessHandle> frozenTree = List.of();

    /**
     * Asks for a freeze from the end of the current invocation until {@code until}. Returns a future that completes
     * when the sandbox runs again (or is gone). A second request while one is pending or applied is refused (null).
     */
    synchronized Hold request(Instant until) {
        if (requestedUntil != null || frozen != null) {
            return null;
        }
        requestedUntil = until;
        applied = new CompletableFuture<>();
        released = new CompletableFuture<>();
        return new Hold(applied, released);
    }

    /**
     * Freezes {@code process} now, in the middle of whatever it does (as a long GC pause or a stalled host stops a
     * JVM), until {@code until}. Null when a freeze is already pending or applied.
     */
    synchronized Hold freezeNow(Process process, Instant until) {
        Hold hold = request(until);
        if (hold != null) {
            applyIfRequested(process);
        }
        return hold;
    }

    /** Freezes {@code process} now if a freeze was requested; the thaw is scheduled at the requested instant. */
    synchronized boolean applyIfRequested(Process process) {
        if (requestedUntil == null) {
            return false;
        }
        Instant until = requestedUntil;
        requestedUntil = null;
        List<ProcessHandle> tree = process == null ? List.of() : SandboxProcesses.stop(process.toHandle());
        if (tree.isEmpty()) {
            applied.complete(false);
            released.complete(null);
            return false;
        }
        frozen = process;
        frozenTree = tree;
        applied.complete(true);
        long delay = Math.max(0, Duration.between(Instant.now(), until).toMillis());
        THAWS.schedule(this::thaw, delay, TimeUnit.MILLISECONDS);
        return true;
    }

    /** Thaws the process now if it is frozen (SIGCONT). */
    synchronized void thaw() {
        if (frozen != null) {
            SandboxProcesses.resume(frozenTree);
            frozen = null;
            frozenTree = List.of();
            notifyAll();
        }
        applied.complete(false);
        released.complete(null);
    }

    /** The process ends (closed, killed or timed out): a pending request is dropped, a frozen one is released. */
    synchronized void ended() {
        requestedUntil = null;
        frozen = null;
        frozenTree = List.of();
        notifyAll();
        applied.complete(false);
        released.complete(null);
    }

    synchronized boolean frozen() {
        return frozen != null;
    }

    /** Waits while the sandbox is frozen: nothing is handed to a frozen sandbox (it would not take it). */
    synchronized void awaitRunning(Duration atMost) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (frozen != null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException("the sandbox stayed frozen for more than " + atMost);
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /** Completes when the sandbox runs again after the current or requested freeze (or is gone). */
    synchronized CompletableFuture<Void> released() {
        return released;
    }
}
