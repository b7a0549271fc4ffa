package dev.redrive.cli;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.QuarantineQuery;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.schema.RoutesDocument;
import java.io.Console;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code redrive replay}: send dead letters back through the sweeper's own schema and idempotency checks. */
@Command(
        name = "replay",
        header = "Replay dead letters through the sweeper's schema and idempotency checks.",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = {
            "Replay dead letters to their source queue through the same checks as the sweeper: "
                    + "QUARANTINED -> UNDER_REVIEW -> SCHEMA_CHECK (current schema, or a registered upcaster) -> "
                    + "IDEMPOTENCY_CHECK (the consumer's own claim lookup) -> REPLAYED or ARCHIVED.",
            "An incompatible payload is refused and ARCHIVED with the reason; an already applied one is marked "
                    + "REPLAYED and nothing is sent. You are written into every audit entry.",
            "A POISON or PERMANENT dead letter fails the same way again unless its cause was fixed: a run that takes "
                    + "one in is refused, naming each and why it failed, unless --allow-class names its class. One "
                    + "already REPLAYED or ARCHIVED is answered 'already REPLAYED' or 'already ARCHIVED: nothing "
                    + "sent' and counts as not replayed by this run (exit 1).",
            "Bulk runs are resumable: the ledger state is the checkpoint, a REPLAYED dead letter is never sent "
                    + "again, and one stopped mid-way resumes from its state. Ctrl-C stops after the message in "
                    + "hand; run the same command again to finish."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  redrive replay q-3f2a9c41d0b7e65a18c4f2d1 --reason 'fix deployed in 1.4.2'",
            "  redrive replay --filter queue=orders-receipts,class=TRANSIENT --dry-run",
            "  redrive replay --filter error-type=Timeout,older-than=1h --limit 500 --yes",
            "  redrive replay --filter class=SCHEMA --json > outcomes.jsonl",
            "  redrive replay q-3f2a9c41d0b7e65a18c4f2d1 --allow-class POISON --reason 'crash fixed in 1.4.3'",
            "",
            "Filter keys: queue, state, class, error-type, older-than (joined with ','; several states or classes "
                    + "with '|'). Default states: QUARANTINED|UNDER_REVIEW|SCHEMA_CHECK|IDEMPOTENCY_CHECK."
        })
final class ReplayCommand implements Callable<Integer> {

    /** The classes a replay takes in only with {@code --allow-class}. */
    static final Set<FailureClass> GUARDED = EnumSet.of(FailureClass.POISON, FailureClass.PERMANENT);

    /** At most this many refused dead letters are named. */
    static final int NAMED = 10;

    @ParentCommand
    RedriveCli root;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "ID", description = "Quarantine ids to replay (or use --filter).")
    List<String> ids = new ArrayList<>();

    @Option(
            names = "--filter",
            paramLabel = "EXPR",
            order = 1,
            description = "Replay every dead letter matching EXPR, oldest first, e.g. "
                    + "queue=orders-receipts,class=TRANSIENT,older-than=2h.")
    String filter;

    @Option(
            names = "--limit",
            paramLabel = "N",
            order = 2,
            description = "With --filter: at most N dead letters this run.")
    Integer limit;

    @Option(
            names = "--dry-run",
            order = 3,
            description = "Run the checks and say what would happen; change and " + "send nothing.")
    boolean dryRun;

    @Option(
            names = "--reason",
            paramLabel = "TEXT",
            order = 4,
            defaultValue = "manual replay with redrive replay",
            description = "Why, written into the audit trail. Default: '${DEFAULT-VALUE}'.")
    String reason;

    @Option(
            names = {"-y", "--yes"},
            order = 5,
            description = "Do not ask for confirmation on a terminal (only that: POISON and PERMANENT dead letters "
                    + "still need --allow-class).")
    boolean yes;

    @Option(
            names = "--allow-class",
            paramLabel = "CLASS",
            split = ",",
            order = 6,
            description = "Also replay dead letters that failed as this class: POISON (crashed or timed out the "
                    + "consumer) or PERMANENT (a business rule said no), joined with ','. Without it a run that takes "
                    + "in any of them is refused before anything changes, naming each and why it failed: replaying "
                    + "them fails the same way unless the cause was fixed. With it, a warning per dead letter. "
                    + "--yes never does this.")
    List<FailureClass> allowClass = new ArrayList<>();

    @Option(
            names = {"-q", "--quiet"},
            order = 7,
            description = "Print the summary only, not a line per message.")
    boolean quiet;

    @Option(
            names = "--json",
            order = 8,
            description = "Machine output: one JSON line per message, then a summary " + "line.")
    boolean json;

    @Override
    public Integer call() {
        if (ids.isEmpty() == (filter == null)) {
            throw CliException.usage("give dead letter ids or --filter EXPR (not both)");
        }
        if (limit != null && (limit < 1 || filter == null)) {
            throw CliException.usage(filter == null ? "--limit goes with --filter" : "--limit must be at least 1");
        }
        for (FailureClass c : allowClass) {
            if (!GUARDED.contains(c)) {
                throw CliException.usage(
                        "--allow-class takes POISON or PERMANENT; " + c + " dead letters are replayed without it");
            }
        }
        Backend backend = root.backend();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> targets = Targets.of(
                backend,
                ids,
                filter,
                QuarantineQuery.unresolved(),
                limit == null ? Integer.MAX_VALUE : limit,
                err,
                "redrive replay");
        if (targets.isEmpty()) {
            out.println("Nothing to replay: no dead letter matches " + describeFilter() + ".");
            out.flush();
            return ExitCodes.OK;
        }
        List<QuarantineRecord> records = new ArrayList<>();
        targets.forEach(id -> backend.operator().show(id).ifPresent(records::add));
        if (!guarded(records, err)) {
            return ExitCodes.USAGE;
        }
        if (!dryRun && !confirmed(targets.size())) {
            out.println("Nothing replayed.");
            out.flush();
            return ExitCodes.OK;
        }
        Actor actor = dryRun ? null : root.actor();
        backend.routes(); // the routes are read before anything is replayed: a bad value stops the run first
        refuseUndeclared(backend, records);
        return new BulkReplay(
                        backend.operator(),
                        root.context(),
                        backend.settings(),
                        new BulkReplay.Output(out, err, json, quiet))
                .run(targets, actor, reason, dryRun)
                .exitCode();
    }

    /**
     * POISON and PERMANENT dead letters still to be replayed need {@code --allow-class}: without it the run is refused
     * before anything changes, naming each (at most {@link #NAMED}) and why it failed; with it, a warning for each.
     * Already resolved ones (REPLAYED, ARCHIVED) are left to the run, which says so.
     */
    private boolean guarded(List<QuarantineRecord> records, PrintWriter err) {
        List<QuarantineRecord> refused = new ArrayList<>();
        for (QuarantineRecord r : records) {
            FailureClass c = r.classification().failureClass();
            if (!GUARDED.contains(c) || !QuarantineQuery.unresolved().contains(r.state())) {
                continue;
            }
            if (allowClass.contains(c)) {
                err.println("redrive replay: warning: " + r.id() + " failed as " + c + " (" + why(r) + "); replaying "
                        + "it because of --allow-class " + c + ": it fails the same way unless the cause was fixed");
            } else {
                refused.add(r);
            }
        }
        if (refused.isEmpty()) {
            err.flush();
            return true;
        }
        Set<FailureClass> classes = new TreeSet<>();
        refused.forEach(r -> classes.add(r.classification().failureClass()));
        String named = String.join(",", classes.stream().map(Enum::name).toList());
        err.println("redrive replay: refused, nothing replayed: " + refused.size() + " of " + records.size()
                + " dead letter(s) failed as " + named + ", and a replay fails the same way unless the cause was fixed "
                + "(--yes only skips the confirmation):");
        refused.stream()
                .limit(NAMED)
                .forEach(r ->
                        err.println("  " + r.id() + "  " + r.classification().failureClass() + "  " + why(r)));
        if (refused.size() > NAMED) {
            err.println("  ... and " + (refused.size() - NAMED) + " more (redrive list --class " + named + ")");
        }
        err.println("redrive replay: to replay them anyway add --allow-class " + named
                + (filter == null ? "" : ", or leave them out with class=TRANSIENT|SCHEMA in --filter"));
        err.flush();
        return false;
    }

    private static String why(QuarantineRecord r) {
        return r.classification().errorType() + ": " + r.classification().reason();
    }

    /**
     * A dead letter of a consumer no route declares cannot be checked: the run stops before anything changes, naming
     * the declared consumers (a replay is never checked against a guess).
     */
    static void refuseUndeclared(Backend backend, List<QuarantineRecord> records) {
        RoutesDocument routes = backend.routesDocument();
        for (QuarantineRecord r : records) {
            if (r.consumer() != null && routes.route(r.consumer()).isEmpty()) {
                throw CliException.config("dead letter " + r.id() + ": " + routes.undeclared(r.consumer())
                        + "; give the routes document that declares it (" + Settings.ROUTES + " or --routes)");
            }
        }
    }

    private String describeFilter() {
        return filter == null
                ? "the ids given"
                : RecordFilter.describe(RecordFilter.parse(filter, QuarantineQuery.unresolved(), Integer.MAX_VALUE));
    }

    /** On a terminal, a bulk replay asks first (unless --yes); off a terminal it proceeds. */
    private boolean confirmed(int count) {
        Console console = System.console();
        if (yes || count < 2 || !root.context().tty() || console == null) {
            return true;
        }
        String answer = console.readLine("Replay %d dead letters (%s)? [y/N] ", count, describeFilter());
        return answer != null && List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT));
    }
}
