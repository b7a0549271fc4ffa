package dev.redrive.console.internal;

import dev.redrive.core.failure.FailureClass;
import java.util.List;

/**
 * Where the console keeps its bulk runs, so a run outlives the browser and the process: each run's frozen scope, kind,
 * reason, actor and dry-run report ({@link Run}, saved whole when it changes) and, one by one as they happen, the outcomes
 * of its execution ({@link Line}, appended). A console started again reads them back and can resume an unfinished run.
 */
public interface RunJournal extends AutoCloseable {

    /** Saves (creates or replaces) a run's record. */
    void save(Run run);

    /** Appends one outcome of a run's execution. */
    void append(String runId, Line outcome);

    /** Every run kept, with the outcomes of its execution in the order they were appended, oldest run first. */
    List<Stored> load();

    /** Lets another console use the journal's place. */
    @Override
    default void close() {}

    /** What a bulk run does: replay or archive. */
    enum Kind {
        REPLAY,
        ARCHIVE;

        /** In lower case, as in URLs and buttons. */
        String word() {
            return this == REPLAY ? "replay" : "archive";
        }
    }

    /** Where a run stands. */
    enum Phase {
        /** The dry run is done; the run waits for the operator's confirmation (with a reason). */
        AWAITING_CONFIRMATION,
        /** Confirmed, waiting for the console's executor. */
        QUEUED,
        RUNNING,
        /** Stopped by the operator; resumable. */
        STOPPED,
        /** The console (browser or process) went away mid-run; resumable. */
        INTERRUPTED,
        /** An operator port call failed (AWS unreachable); resumable. */
        FAILED,
        /** Every frozen dead letter was done. */
        DONE;

        /** Whether the run was confirmed and can be resumed now (it is not running, and not done). */
        boolean resumable() {
            return this == STOPPED || this == INTERRUPTED || this == FAILED;
        }

        /** Whether the console is executing it (or about to). */
        boolean active() {
            return this == QUEUED || this == RUNNING;
        }
    }

    /**
     * One dead letter's outcome, in a dry run or an execution.
     *
     * @param outcome a {@link BulkOutcome} name
     * @param text    the operator port's words for it
     */
    record Line(String id, String outcome, String text) {}

    /**
     * A POISON or PERMANENT dead letter of the scope, found by core's guard at the dry run, with why it failed.
     *
     * @param failureClass the class's name
     */
    record Guarded(String id, String failureClass, String why) {}

    /**
     * One bulk run.
     *
     * @param scope       what was chosen, in words (a group, a selection)
     * @param back        the console page it was chosen on
     * @param ids         the frozen scope: exactly these dead letters run, in this order
     * @param dryRun      the dry run's outcome per id
     * @param guarded     the scope's POISON and PERMANENT dead letters
     * @param reason      the operator's typed reason (empty until confirmed)
     * @param confirmedBy who confirmed (empty until then)
     * @param allowed     the guarded classes the operator allowed explicitly
     * @param resumes     who resumed it and when, one entry per resume
     * @param failure     why the last execution ended early, or empty
     */
    record Run(
            String id,
            Kind kind,
            String scope,
            String back,
            String createdAt,
            String createdBy,
            List<String> ids,
            List<Line> dryRun,
            List<Guarded> guarded,
            Phase phase,
            String reason,
            String confirmedBy,
            String confirmedAt,
            List<FailureClass> allowed,
            List<String> resumes,
            String failure,
            String updatedAt) {

        public Run {
            ids = List.copyOf(ids);
            dryRun = List.copyOf(dryRun);
            guarded = List.copyOf(guarded);
            allowed = List.copyOf(allowed);
            resumes = List.copyOf(resumes);
        }

        Run with(Phase newPhase, String newFailure, String at) {
            return new Run(
                    id,
                    kind,
                    scope,
                    back,
                    createdAt,
                    createdBy,
                    ids,
                    dryRun,
                    guarded,
                    newPhase,
                    reason,
                    confirmedBy,
                    confirmedAt,
                    allowed,
                    resumes,
                    newFailure,
                    at);
        }
    }

    /** A run as kept, with the outcomes of its execution so far. */
    record Stored(Run run, List<Line> outcomes) {}
}
