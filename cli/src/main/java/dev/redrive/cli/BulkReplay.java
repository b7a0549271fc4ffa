package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.ReplayStats;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Replays dead letters one at a time through {@link ReplayService}, printing each outcome, a progress line on a
 * terminal, and a summary. Resumable by construction: the ledger state is the checkpoint (each step is saved before
 * the next; a REPLAYED record is never sent again; a record stopped mid-way resumes from its state), so a run stopped
 * by Ctrl-C or an error is finished by running the same command again.
 */
final class BulkReplay {

    /** How the run ended. */
    record Result(ReplayTally tally, int total, boolean interrupted, Optional<String> failure, int exitCode) {}

    private final ReplayService service;
    private final ReplayStats stats;
    private final CliContext context;
    private final Settings settings;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean json;
    private final boolean quiet;

    BulkReplay(
            ReplayService service,
            ReplayStats stats,
            CliContext context,
            Settings settings,
            PrintWriter out,
            PrintWriter err,
            boolean json,
            boolean quiet) {
        this.service = service;
        this.stats = stats;
        this.context = context;
        this.settings = settings;
        this.out = out;
        this.err = err;
        this.json = json;
        this.quiet = quiet;
    }

    Result run(List<QuarantineRecord> targets, Actor actor, String why, boolean dryRun) {
        ReplayTally tally = new ReplayTally();
        Progress progress = new Progress(err, context.tty() && !json, targets.size());
        boolean interrupted = false;
        Optional<String> failure = Optional.empty();
        int exitCode = ExitCodes.OK;
        for (QuarantineRecord r : targets) {
            if (context.stopRequested()) {
                interrupted = true;
                break;
            }
            ReplayOutcome outcome;
            try {
                outcome = service.replay(r.id(), actor, why, Optional.empty(), dryRun);
                if (outcome instanceof ReplayOutcome.Sent && !dryRun) {
                    stats.add(r.classification().failureClass(), 1, 0);
                }
            } catch (SdkException e) {
                failure = Optional.of(r.id() + ": " + AwsErrors.describe(e, settings));
                exitCode = ExitCodes.CONFIG;
                break;
            } catch (RuntimeException e) {
                failure = Optional.of(
                        r.id() + ": unexpected " + e.getClass().getSimpleName() + ": " + AwsErrors.oneLine(e));
                exitCode = ExitCodes.INTERNAL;
                break;
            }
            tally.add(outcome, r.state());
            progress.clear();
            print(outcome, dryRun);
            progress.update(tally.done(), tally.compact(dryRun));
        }
        progress.finish();
        if (interrupted) {
            exitCode = ExitCodes.INTERRUPTED;
        } else if (failure.isEmpty() && !tally.allReplayed()) {
            exitCode = ExitCodes.PARTIAL;
        }
        Result result = new Result(tally, targets.size(), interrupted, failure, exitCode);
        summary(result, dryRun);
        return result;
    }

    private void print(ReplayOutcome outcome, boolean dryRun) {
        if (json || !quiet) {
            Json.outcome(out, json, outcome.quarantineId(), outcome, outcome.describe(), dryRun);
        }
    }

    private void summary(Result result, boolean dryRun) {
        ReplayTally t = result.tally();
        int left = result.total() - t.done();
        if (json) {
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
            String head = dryRun ? "Dry run, nothing changed: " : "Replayed ";
            out.println();
            out.println(head + t.done() + " of " + result.total() + ": " + t.describe(dryRun) + ".");
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
