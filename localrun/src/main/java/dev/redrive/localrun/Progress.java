package dev.redrive.localrun;

import java.io.PrintStream;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What the run prints while it goes: steps as lines, and a compact live status line (rewritten in place on a
 * terminal, printed every few seconds otherwise).
 */
public final class Progress {

    private final PrintStream out;
    private final boolean terminal = System.console() != null;
    private final long started = System.nanoTime();
    private volatile String lastStatus = "";
    private long lastPrinted;

    public Progress(PrintStream out) {
        this.out = out;
    }

    public synchronized void step(String what) {
        clearStatus();
        out.printf("[%6.1fs] %s%n", elapsed(), what);
        out.flush();
    }

    public synchronized void status(String line) {
        lastStatus = line;
        if (terminal) {
            out.print("\r\u001b[2K" + line);
            out.flush();
        } else if (System.nanoTime() - lastPrinted > Duration.ofSeconds(5).toNanos()) {
            out.println("         " + line);
            lastPrinted = System.nanoTime();
        }
    }

    /** A wait that ran out of time (any other failure of {@code done} propagates as it is). */
    public static final class TimedOut extends IllegalStateException {
        TimedOut(String message) {
            super(message);
        }
    }

    /** Waits until {@code done} holds, refreshing the status line; fails after {@code timeout} ({@link TimedOut}). */
    public void await(String what, Duration timeout, Supplier<String> status, Supplier<Boolean> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.get()) {
            if (System.nanoTime() > deadline) {
                clearStatus();
                throw new TimedOut("timed out after " + timeout.toSeconds() + " s waiting for " + what
                        + " (last status: " + lastStatus + ")");
            }
            status(status.get());
            Thread.sleep(500); // a status poll of local AWS: there is no event to await
        }
        status(status.get());
        clearStatus();
    }

    public double elapsed() {
        return (System.nanoTime() - started) / 1e9;
    }

    private void clearStatus() {
        if (terminal && !lastStatus.isEmpty()) {
            out.print("\r\u001b[2K");
        }
    }
}
