package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.operator.RunListener;
import dev.redrive.core.operator.RunResult;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Presents a replay run of the operator port ({@link OperatorPort#replayEach}): each outcome as it comes, a progress
 * line on a terminal, a summary, and the exit code. The port replays and counts; this only prints. Resumable by
 * construction: the ledger state is the checkpoint (each step is saved before the next; a REPLAYED record is never sent
 * again; a record stopped mid-way resumes from its state), so a run stopped by Ctrl-C or an error is finished by
 * running the same command again.
 */
final class BulkReplay {

    /** How the run ended. */
    record Result(ReplayTally tally, int total, boolean interrupted, Optional<String> failure, int exitCode) {}

    /** Where and how a run prints: one line per message (JSON lines with {@code json}), or the summary only. */
    record Output(PrintWriter out, PrintWriter err, boolean json, boolean quiet) {}

    private final OperatorPort operator;
    private final CliContext context;
    private final Settings settings;
    private final Output output;

    BulkReplay(OperatorPort operator, CliContext context, Settings settings, Output output) {
        this.operator = operator;
        this.context = context;
        this.settings = settings;
        this.output = output;
    }

    Result run(List<String> targets, Actor actor, String why, boolean dryRun) {
        ReplayTally tally = new ReplayTally();
        Progress progress = new Progress(output.err(), context.tty() && !output.json(), targets.size());
        RunResult run = operator.replayEach(targets, actor, why, dryRun, new RunListener<>() {
            @Override
            public boolean stopRequested() {
                return context.stopRequested();
            }

            @Override
            public void done(String id, Optional<QuarantineState> before, ReplayOutcome outcome) {
                tally.add(outcome, before.orElse(null));
                progress.clear();
                print(outcome, before.orElse(null), dryRun);
                progress.update(tally.done(), tally.compact(dryRun));
            }
        });
        progress.finish();
        Optional<String> failure = run.failure().map(f -> f.quarantineId() + ": " + describe(f.error()));
        int exitCode = ExitCodes.OK;
        if (run.stopped()) {
            exitCode = ExitCodes.INTERRUPTED;
        } else if (run.failure().isPresent()) {
            exitCode = run.failure().get().error() instanceof SdkException ? ExitCodes.CONFIG : ExitCodes.INTERNAL;
        } else if (!tally.allReplayed()) {
            exitCode = ExitCodes.PARTIAL;
        }
        Result result = new Result(tally, targets.size(), run.stopped(), failure, exitCode);
        summary(result, dryRun);
        return result;
    }

    private String describe(RuntimeException e) {
        return e instanceof SdkException sdk
                ? AwsErrors.describe(sdk, settings)
                : "unexpected " + e.getClass().getSimpleName() + ": " + AwsErrors.oneLine(e);
    }

    private void print(ReplayOutcome outcome, QuarantineState before, boolean dryRun) {
        if (output.json() || !output.quiet()) {
            Json.outcome(
                    output.out(), output.json(), outcome.quarantineId(), outcome, describe(outcome, before), dryRun);
        }
    }

    /**
     * What happened to one dead letter. One resolved before this run is "already REPLAYED" or "already ARCHIVED", the
     * same answer for both, pointing at the audit trail for who and why.
     */
    static String describe(ReplayOutcome outcome, QuarantineState before) {
        if (outcome instanceof ReplayOutcome.NotReplayable
                && (before == QuarantineState.REPLAYED || before == QuarantineState.ARCHIVED)) {
            return "already " + before + ": nothing sent (redrive show " + outcome.quarantineId()
                    + " says who and why)";
        }
        return outcome.describe();
    }

    private void summary(Result result, boolean dryRun) {
        PrintWriter out = output.out();
        PrintWriter err = output.err();
        ReplayTally t = result.tally();
        int left = result.total() - t.done();
        if (output.json()) {
            ObjectNode n = Json.object();
            ObjectNode s = n.putObject("summary");
            s.put("total", result.total());
            s.put("done", t.done());
            s.put("dryRun", dryRun);
            s.put("interrupted", result.interrupted());
            s.put("failure", result.failure().orElse(null));
            s.set("outcomes", t.json());
            Json.printLine(out, n);
        } else {
            // a real run heads with what it replayed (sent, or found applied already), not with what it went through:
            // "Replayed 1 of 1: sent 0" for an already resolved dead letter was issue 39's complaint
            String head = dryRun ? "Dry run, nothing changed: " + t.done() : "Replayed " + t.replayed();
            out.println();
            out.println(head + " of " + result.total() + ": " + t.describe(dryRun) + ".");
            out.flush();
        }
        result.failure().ifPresent(f -> err.println("redrive replay: stopped after an error on " + f));
        if (left > 0 && (result.interrupted() || result.failure().isPresent())) {
            err.println("redrive replay: " + left + " of " + result.total() + " not done; run the same command "
                    + "again to resume (dead letters already replayed are never sent again)");
        }
        err.flush();
    }
}
