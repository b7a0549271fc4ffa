package dev.redrive.core.sweeper;

import dev.redrive.core.failure.FailureClass;

/** Builds {@link SweepReport}s with replay figures for the functions' metric tests (its recorders are core's own). */
public final class SweepReports {

    private SweepReports() {}

    /** A report of one run on {@code route} that sent {@code sent} replays and saw {@code returned} come back. */
    public static SweepReport replays(Route route, FailureClass failureClass, int sent, int returned) {
        SweepReport report = new SweepReport(route);
        for (int i = 0; i < sent; i++) {
            report.replayOutcome("Sent");
        }
        for (int i = 0; i < returned; i++) {
            report.replayReturned(failureClass);
        }
        return report;
    }
}
