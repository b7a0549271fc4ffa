package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.operator.RunListener;
import dev.redrive.core.operator.RunResult;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineState;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code redrive archive}: a person's decision to archive dead letters, with a note. */
@Command(
        name = "archive",
        header = "Archive dead letters by decision, with a note.",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = {
            "Archive dead letters by decision, without replaying them: QUARANTINED or UNDER_REVIEW -> ARCHIVED, "
                    + "with your note and your name in the audit trail. Any other state is refused with the reason "
                    + "and left as it is.",
            "Archived dead letters stay in the ledger until the retention sweep moves them to the S3 archive."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  redrive archive q-3f2a9c41d0b7e65a18c4f2d1 --note 'test order from the load test'",
            "  redrive archive --filter class=PERMANENT,error-type=UnsupportedCurrency --note 'JPY orders: refunded' "
                    + "--dry-run",
            "",
            "Filter keys: queue, state, class, error-type, older-than. Default states: QUARANTINED|UNDER_REVIEW."
        })
final class ArchiveCommand implements Callable<Integer> {

    @ParentCommand
    RedriveCli root;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "ID", description = "Quarantine ids to archive (or use --filter).")
    List<String> ids = new ArrayList<>();

    @Option(
            names = "--filter",
            paramLabel = "EXPR",
            order = 1,
            description = "Archive every dead letter matching EXPR, e.g. class=PERMANENT,error-type=Rule.")
    String filter;

    @Option(
            names = "--note",
            paramLabel = "TEXT",
            required = true,
            order = 2,
            description = "Why they are archived (required), written into the audit trail.")
    String note;

    @Option(names = "--dry-run", order = 3, description = "Say what would be archived; change nothing.")
    boolean dryRun;

    @Option(
            names = "--json",
            order = 4,
            description = "Machine output: one JSON line per dead letter, then a " + "summary line.")
    boolean json;

    @Override
    public Integer call() {
        if (ids.isEmpty() == (filter == null)) {
            throw CliException.usage("give dead letter ids or --filter EXPR (not both)");
        }
        if (note.isBlank()) {
            throw CliException.usage("--note must say why");
        }
        Backend backend = root.backend();
        List<String> targets = Targets.of(
                backend,
                ids,
                filter,
                EnumSet.copyOf(ArchiveDecision.ARCHIVABLE),
                Integer.MAX_VALUE,
                spec.commandLine().getErr(),
                "redrive archive");
        Actor actor = root.actor();
        PrintWriter out = spec.commandLine().getOut();
        int[] counts = new int[2]; // archived, other
        RunResult run = backend.operator().archiveEach(targets, actor, note, dryRun, new RunListener<>() {
            @Override
            public boolean stopRequested() {
                return root.context().stopRequested();
            }

            @Override
            public void done(String id, Optional<QuarantineState> before, ArchiveDecision.Outcome outcome) {
                counts[outcome instanceof ArchiveDecision.Archived ? 0 : 1]++;
                Json.outcome(out, json, outcome.quarantineId(), outcome, outcome.describe(), dryRun);
            }
        });
        if (run.stopped()) {
            spec.commandLine()
                    .getErr()
                    .println("redrive archive: stopped by request after " + run.done() + " of " + targets.size()
                            + "; run the same command again to finish");
            return ExitCodes.INTERRUPTED;
        }
        if (run.failure().isPresent()) {
            throw run.failure().get().error();
        }
        summary(out, targets.size(), counts[0], counts[1]);
        return counts[1] == 0 ? ExitCodes.OK : ExitCodes.PARTIAL;
    }

    private void summary(PrintWriter out, int total, int archived, int other) {
        if (json) {
            ObjectNode n = Json.object();
            ObjectNode s = n.putObject("summary");
            s.put("total", total);
            s.put(dryRun ? "wouldArchive" : "archived", archived);
            s.put("notArchived", other);
            Json.printLine(out, n);
            return;
        }
        if (total == 0) {
            out.println("Nothing to archive: no dead letter matches "
                    + RecordFilter.describe(
                            RecordFilter.parse(filter, EnumSet.copyOf(ArchiveDecision.ARCHIVABLE), Integer.MAX_VALUE))
                    + ".");
        } else {
            out.println();
            out.println((dryRun ? "Dry run, nothing changed: would archive " : "Archived ") + archived + " of " + total
                    + (other > 0 ? "; " + other + " refused or changed meanwhile (see above)" : "") + ".");
        }
        out.flush();
    }
}
