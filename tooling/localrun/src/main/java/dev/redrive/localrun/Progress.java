package dev.redrive.localrun;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Comparator;
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

    /** Prints {@code text} (whole lines) as it is, after clearing the live status line. */
    public synchronized void text(String text) {
        clearStatus();
        out.print(text);
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

    /**
     * Waits until {@code done} holds, refreshing the status line; fails after {@code timeout} ({@link TimedOut}),
     * having printed where every thread of this process stood, so that a run that stalls says where.
     */
    public void await(String what, Duration timeout, Supplier<String> status, Supplier<Boolean> done)
            throws InterruptedException {
        await(what, timeout, status, done, () -> "");
    }

    /**
     * {@link #await(String, Duration, Supplier, Supplier)}, and on a timeout the text {@code evidence} gives (what the
     * system holds: its dead letters, its logs' failures) printed and carried in the {@link TimedOut}'s message, for a
     * reader who has only the build's output.
     */
    public void await(
            String what, Duration timeout, Supplier<String> status, Supplier<Boolean> done, Supplier<String> evidence)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.get()) {
            if (System.nanoTime() > deadline) {
                clearStatus();
                printThreads(what);
                String found = evidence.get();
                text(found.isEmpty() || found.endsWith("\n") ? found : found + "\n");
                throw new TimedOut("timed out after " + timeout.toSeconds() + " s waiting for " + what
                        + " (last status: " + lastStatus + ")" + (found.isEmpty() ? "" : "; " + found));
            }
            status(status.get());
            Thread.sleep(500); // a status poll of local AWS: there is no event to await
        }
        status(status.get());
        clearStatus();
    }

    /** Every thread of this process and its stack, as a thread dump shows them (a stalled run's evidence). */
    private synchronized void printThreads(String what) {
        out.printf("[%6.1fs] timed out waiting for %s; this process's threads:%n", elapsed(), what);
        Thread.getAllStackTraces().entrySet().stream()
                .sorted(Comparator.comparing(e -> e.getKey().getName()))
                .forEach(e -> {
                    Thread t = e.getKey();
                    out.printf("  \"%s\" %s%n", t.getName(), t.getState());
                    for (StackTraceElement frame : e.getValue()) {
                        out.println("      at " + frame);
                    }
                });
        out.flush();
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
