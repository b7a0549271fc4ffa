package dev.redrive.console.internal;

import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;

/**
 * What a bulk run did (or, in its dry run, would do) to one dead letter: the operator port's outcome types
 * ({@link ReplayOutcome}, {@link ArchiveDecision.Outcome}) in the words of the console's tallies. A dead letter resolved
 * before the run is "already REPLAYED" or "already ARCHIVED", the same kind of answer for both, as in the CLI.
 */
enum BulkOutcome {
    SENT("would replay", "sent"),
    ALREADY_APPLIED("already applied (nothing would be sent)", "already applied (nothing sent)"),
    REFUSED("incompatible: would be refused and archived", "incompatible: refused and archived"),
    HELD("held by a breaker or the replay pace", "held by a breaker or the replay pace (left for a later run)"),
    DEFERRED("deferred (its key is in progress)", "deferred (its key is in progress)"),
    ALREADY_REPLAYED("already REPLAYED (nothing would be sent)", "already REPLAYED (nothing sent)"),
    ALREADY_ARCHIVED("already ARCHIVED (nothing would be sent)", "already ARCHIVED (nothing sent)"),
    NOT_REPLAYABLE("not replayable", "not replayable"),
    CHECK_FAILED("checks failed (nothing changed)", "checks failed (nothing changed)"),
    ARCHIVED("would archive", "archived"),
    NOT_ARCHIVABLE("not archivable", "not archivable"),
    CONFLICT("conflict (changed meanwhile)", "conflict (changed meanwhile)"),
    NOT_FOUND("not found", "not found");

    private final String dryRunLabel;
    private final String label;

    BulkOutcome(String dryRunLabel, String label) {
        this.dryRunLabel = dryRunLabel;
        this.label = label;
    }

    /** How the tallies name it, in a dry run or in the run itself. */
    String label(boolean dryRun) {
        return dryRun ? dryRunLabel : label;
    }

    static BulkOutcome of(ReplayOutcome outcome, QuarantineState before) {
        if (outcome instanceof ReplayOutcome.Sent) {
            return SENT;
        }
        if (outcome instanceof ReplayOutcome.AlreadyApplied) {
            return ALREADY_APPLIED;
        }
        if (outcome instanceof ReplayOutcome.Refused) {
            return REFUSED;
        }
        if (outcome instanceof ReplayOutcome.Held) {
            return HELD;
        }
        if (outcome instanceof ReplayOutcome.Deferred) {
            return DEFERRED;
        }
        if (outcome instanceof ReplayOutcome.NotReplayable) {
            return before == QuarantineState.REPLAYED
                    ? ALREADY_REPLAYED
                    : before == QuarantineState.ARCHIVED ? ALREADY_ARCHIVED : NOT_REPLAYABLE;
        }
        if (outcome instanceof ReplayOutcome.Conflict) {
            return CONFLICT;
        }
        if (outcome instanceof ReplayOutcome.CheckFailed) {
            return CHECK_FAILED;
        }
        return NOT_FOUND;
    }

    static BulkOutcome of(ArchiveDecision.Outcome outcome) {
        if (outcome instanceof ArchiveDecision.Archived) {
            return ARCHIVED;
        }
        if (outcome instanceof ArchiveDecision.Refused refused) {
            return refused.state() == QuarantineState.REPLAYED
                    ? ALREADY_REPLAYED
                    : refused.state() == QuarantineState.ARCHIVED ? ALREADY_ARCHIVED : NOT_ARCHIVABLE;
        }
        if (outcome instanceof ArchiveDecision.Conflict) {
            return CONFLICT;
        }
        return NOT_FOUND;
    }

    /** What one dead letter's outcome says, with "already REPLAYED/ARCHIVED" for one resolved before the run. */
    static String describe(ReplayOutcome outcome, QuarantineState before) {
        if (outcome instanceof ReplayOutcome.NotReplayable
                && (before == QuarantineState.REPLAYED || before == QuarantineState.ARCHIVED)) {
            return "already " + before + ": nothing sent";
        }
        return outcome.describe();
    }
}
