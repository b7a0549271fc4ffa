package dev.redrive.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The progress of a bulk run on a terminal: one status line at the bottom of stderr, redrawn in place
 * ({@code [########------------] 250/500  sent 240 · applied 5 · refused 5}), cleared before each per-message line so
 * the two never mix. Off a terminal it draws nothing: the per-message lines and the summary say it all.
 */
final class Progress {

    private static final int WIDTH = 24;

    private final PrintWriter err;
    private final boolean enabled;
    private final int total;
    private boolean drawn;

    Progress(PrintWriter err, boolean tty, int total) {
        this.err = err;
        this.enabled = tty && total > 1;
        this.total = total;
    }

    /** Clears the status line so a message line can be printed in its place. */
    void clear() {
        if (enabled && drawn) {
            err.print("\r\u001b[2K");
            err.flush();
            drawn = false;
        }
    }

    /** Redraws the status line for {@code done} of the total, with {@code counts} in words. */
    void update(int done, String counts) {
        if (!enabled) {
            return;
        }
        int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
        err.print(String.format(
                Locale.ROOT,
                "\r\u001b[2K[%s%s] %d/%d  %s",
                "#".repeat(filled),
                "-".repeat(WIDTH - filled),
                done,
                total,
                counts));
        err.flush();
        drawn = true;
    }

    /** Leaves the terminal clean for the summary. */
    void finish() {
        clear();
    }
}
