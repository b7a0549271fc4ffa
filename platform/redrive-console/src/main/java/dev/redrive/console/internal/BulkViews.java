package dev.redrive.console.internal;

import java.util.List;

/** What the bulk run templates render: plain values, formatted already. */
public final class BulkViews {

    private BulkViews() {}

    /**
     * One count of a run's tallies.
     *
     * @param outcome the {@link BulkOutcome} name (a stable key for tests and the progress script)
     */
    public record Tally(String outcome, String label, int count) {}

    /** One dead letter's outcome. */
    public record Outcome(String id, String outcome, String label, String text) {}

    /** A POISON or PERMANENT dead letter of the scope, with the warning shown for it. */
    public record Warning(String id, String failureClass, String text) {}

    /** A guarded class present in the scope, and how many of its dead letters. */
    public record GuardedClass(String name, int count) {}

    /** One run in the list of runs. */
    public record RunRow(
            String id,
            String kind,
            String scope,
            String phase,
            int done,
            int total,
            String createdAt,
            String by,
            boolean resumable) {}

    /** The list of runs: the unfinished ones first. */
    public record Runs(List<RunRow> unfinished, List<RunRow> runs) {}

    /**
     * One run's page: its dry-run report and confirmation form, or its progress and final tallies.
     *
     * @param awaitingConfirmation whether it shows the dry run and the confirmation form
     * @param active               whether it is queued or running (the page polls its progress)
     * @param resumable            whether it shows a resume button
     * @param lines                per dead letter: the dry run's outcomes, or the execution's once confirmed
     * @param linesShown           how many of {@code lines} are listed (the counts are always whole)
     */
    public record RunPage(
            String id,
            String kind,
            String verb,
            String scope,
            String back,
            String phase,
            String createdAt,
            String createdBy,
            int total,
            int done,
            int left,
            boolean awaitingConfirmation,
            boolean active,
            boolean resumable,
            boolean stopRequested,
            String reason,
            String confirmedBy,
            String allowed,
            List<String> resumes,
            String failure,
            List<Tally> dryRunTallies,
            List<Tally> tallies,
            List<Warning> warnings,
            List<GuardedClass> guardedClasses,
            List<Outcome> lines,
            int linesShown,
            String actor) {}
}
