package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.replay.MaintenanceWindow;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code redrive window}: the pre-approved maintenance windows that let the automation replay on its own. */
@Command(
        name = "window",
        header = "Add, list and remove maintenance windows.",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        description = {
            "Manage maintenance windows. While a window lasts, TRANSIENT failures of its dependency are expected: "
                    + "the sweeper replays the dead letters whose first and last failure fall inside it, without a "
                    + "person. Everything else waits for one."
        },
        subcommands = {WindowCommand.Add.class, WindowCommand.ListWindows.class, WindowCommand.Remove.class},
        footerHeading = "%nExamples:%n",
        footer = {
            "  redrive window add --dependency email-provider --start 2026-11-29T22:00:00Z --end 2026-11-30T00:00:00Z "
                    + "--reason 'CHG-1234 mail provider maintenance'",
            "  redrive window list",
            "  redrive window remove w-20261129-2200-4f1a"
        })
final class WindowCommand implements Callable<Integer> {

    @ParentCommand
    RedriveCli root;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw CliException.usage("name a window command: add, list or remove (see 'redrive window --help')");
    }

    /** {@code redrive window add}. */
    @Command(
            name = "add",
            header = "Add a maintenance window.",
            mixinStandardHelpOptions = true,
            usageHelpAutoWidth = true,
            sortOptions = false,
            description = "Add a maintenance window, approved by you (the actor).",
            footerHeading = "%nExamples:%n",
            footer = {
                "  redrive window add --dependency email-provider --start now --end now+2h --reason CHG-1234",
                "  redrive window add --dependency email-provider --start now --end now+2h --reason CHG-1236 "
                        + "--hold-breaker",
                "  redrive window add --dependency revenue-store --start 2026-11-29T22:00:00Z "
                        + "--end 2026-11-29T23:30:00Z --reason 'DynamoDB table migration' --id chg-1235",
                "",
                "Times: ISO-8601 with a zone or offset, or now, now+2h, now-30m."
            })
    static final class Add implements Callable<Integer> {

        @ParentCommand
        WindowCommand parent;

        @Spec
        CommandSpec spec;

        @Option(
                names = "--dependency",
                required = true,
                paramLabel = "NAME",
                order = 1,
                description = "The dependency it covers, as failures name it (email-provider, revenue-store): one a "
                        + "route's breaker, a shared breaker, a window or a dead letter's failure names; another is "
                        + "an error that names them.")
        String dependency;

        @Option(
                names = "--start",
                required = true,
                paramLabel = "TIME",
                order = 2,
                description = "When it starts (inclusive).")
        Instant start;

        @Option(
                names = "--end",
                required = true,
                paramLabel = "TIME",
                order = 3,
                description = "When it ends (exclusive); after --start.")
        Instant end;

        @Option(
                names = "--reason",
                required = true,
                paramLabel = "TEXT",
                order = 4,
                description = "Why: the change ticket, the vendor notice.")
        String reason;

        @Option(
                names = "--id",
                paramLabel = "ID",
                order = 5,
                description = "Its id. Default: w-<start as yyyyMMdd-HHmm>-<4 random hex digits>.")
        String id;

        @Option(
                names = "--hold-breaker",
                order = 6,
                description = "Also hold the dependency's circuit breaker OPEN from the window's start to its end, "
                        + "in every sandbox: no call reaches it, messages wait instead of spending their receives, "
                        + "replays are held, and after the window one probe decides. A window that lasts now is held "
                        + "at once; one that starts later, by the sweeper's first run after its start. "
                        + "'window remove' ends the hold early.")
        boolean holdBreaker;

        @Override
        public Integer call() {
            if (!end.isAfter(start)) {
                throw CliException.usage("the window ends (" + end + ") before it starts (" + start + ")");
            }
            if (dependency.isBlank() || reason.isBlank()) {
                throw CliException.usage("--dependency and --reason must not be blank");
            }
            RedriveCli root = parent.root;
            String windowId = id != null ? id.strip() : MaintenanceWindow.generatedId(start);
            Instant now = root.context().clock().instant();
            OperatorPort windows = root.backend().operator();
            MaintenanceWindow w = new MaintenanceWindow(
                    windowId, dependency.strip(), start, end, root.actor().name(), reason.strip(), holdBreaker);
            try {
                windows.checkNewWindow(w); // core's checks, the console's too
            } catch (IllegalArgumentException e) {
                throw CliException.usage(e.getMessage());
            }
            try {
                windows.addWindow(w);
            } catch (IllegalArgumentException e) {
                throw CliException.config("window " + w.id() + " was not added: " + e.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println("Added window " + w.id() + ": " + w.dependency() + " from " + Durations.at(w.start()) + " to "
                    + Durations.at(w.end())
                    + " (" + Durations.format(Duration.between(w.start(), w.end())) + "), approved by "
                    + w.approvedBy() + ".");
            if (holdBreaker && w.lastsAt(now)) {
                BreakerState held = windows.breakers().get(w.dependency());
                out.println("The " + w.dependency() + " circuit breaker is held OPEN until "
                        + Durations.at(held.openUntil()) + " in every sandbox (token " + held.token() + "): no "
                        + "call reaches it, messages wait, replays are held; after the window one probe decides.");
            } else if (holdBreaker) {
                out.println("The " + w.dependency() + " circuit breaker will be held OPEN from the sweeper's first run "
                        + "after " + Durations.at(w.start()) + " until " + Durations.at(w.end()) + " in every sandbox; "
                        + "until then it works as usual (it opens by itself on failures).");
            }
            if (Duration.between(start, end).compareTo(Duration.ofHours(24)) > 0) {
                spec.commandLine()
                        .getErr()
                        .println("redrive window add: warning: the window lasts longer than 24h; "
                                + "the automation may replay every TRANSIENT failure of " + w.dependency() + " in it");
            }
            if (!end.isAfter(root.context().clock().instant())) {
                spec.commandLine()
                        .getErr()
                        .println("redrive window add: warning: the window is over already; it "
                                + "approves replays of failures that happened inside it");
            }
            out.flush();
            spec.commandLine().getErr().flush();
            return ExitCodes.OK;
        }
    }

    /** {@code redrive window list}. */
    @Command(
            name = "list",
            header = "List maintenance windows.",
            mixinStandardHelpOptions = true,
            usageHelpAutoWidth = true,
            sortOptions = false,
            description = "List maintenance windows, earliest first, with whether each is active, upcoming or over.",
            footerHeading = "%nExamples:%n",
            footer = {"  redrive window list", "  redrive window list --json"})
    static final class ListWindows implements Callable<Integer> {

        @ParentCommand
        WindowCommand parent;

        @Spec
        CommandSpec spec;

        @Option(names = "--json", order = 1, description = "Machine output: a JSON array.")
        boolean json;

        @Override
        public Integer call() {
            List<MaintenanceWindow> windows = parent.root.backend().operator().windows();
            Instant now = parent.root.context().clock().instant();
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                ArrayNode array = Json.array();
                for (MaintenanceWindow w : windows) {
                    ObjectNode n = array.addObject();
                    n.put("id", w.id());
                    n.put("dependency", w.dependency());
                    n.put("start", Json.instant(w.start()));
                    n.put("end", Json.instant(w.end()));
                    n.put("status", status(w, now));
                    n.put("approvedBy", w.approvedBy());
                    n.put("reason", w.reason());
                    n.put("holdsBreaker", w.holdsBreaker());
                }
                Json.print(out, array);
                return ExitCodes.OK;
            }
            if (windows.isEmpty()) {
                out.println("No maintenance windows: the automation replays nothing on its own.");
                out.flush();
                return ExitCodes.OK;
            }
            Table table = new Table(
                    List.of("ID", "DEPENDENCY", "START", "END", "STATUS", "HOLDS BREAKER", "APPROVED BY", "REASON"),
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    40,
                    60);
            windows.forEach(w -> table.row(
                    w.id(),
                    w.dependency(),
                    Durations.at(w.start()),
                    Durations.at(w.end()),
                    status(w, now),
                    w.holdsBreaker() ? "yes" : "no",
                    w.approvedBy(),
                    w.reason()));
            table.print(out);
            return ExitCodes.OK;
        }

        private static String status(MaintenanceWindow w, Instant now) {
            return now.isBefore(w.start()) ? "upcoming" : now.isBefore(w.end()) ? "active" : "over";
        }
    }

    /** {@code redrive window remove}. */
    @Command(
            name = "remove",
            header = "Remove a maintenance window.",
            mixinStandardHelpOptions = true,
            usageHelpAutoWidth = true,
            description = "Remove a maintenance window: from now on it approves nothing.",
            footerHeading = "%nExamples:%n",
            footer = {"  redrive window remove w-20261129-2200-4f1a"})
    static final class Remove implements Callable<Integer> {

        @ParentCommand
        WindowCommand parent;

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "ID", description = "The window's id (see redrive window list).")
        String id;

        @Override
        public Integer call() {
            OperatorPort operator = parent.root.backend().operator();
            if (!operator.removeWindow(id)) {
                throw Suggestions.unknown(
                        "maintenance window",
                        id,
                        operator.windows().stream().map(MaintenanceWindow::id).toList(),
                        "see redrive window list");
            }
            spec.commandLine().getOut().println("Removed window " + id + ".");
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        }
    }
}
