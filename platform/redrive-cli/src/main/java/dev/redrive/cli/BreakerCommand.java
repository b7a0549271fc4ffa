package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.replay.MaintenanceWindow;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code redrive breaker}: the circuit breakers every sandbox shares, with the maintenance windows holding them; ending
 * a hold, asking for a probe.
 */
@Command(
        name = "breaker",
        header = "See the shared circuit breakers, end a hold, ask for a probe.",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        description = {
            "The circuit breaker of each dependency the consumers call, as every sandbox shares it (control table). "
                    + "While it is OPEN (or held OPEN by maintenance windows), calls are refused, messages wait and "
                    + "replays are held; once its open period is over, the next call probes: a consumer's, or one "
                    + "replay's (the sweeper's or 'redrive replay'), which takes the probe lease and is the probe."
        },
        subcommands = {BreakerCommand.ListBreakers.class, BreakerCommand.Release.class, BreakerCommand.Probe.class},
        footerHeading = "%nExamples:%n",
        footer = {
            "  redrive breaker list",
            "  redrive breaker release --dependency email-provider",
            "  redrive breaker probe --dependency email-provider"
        })
final class BreakerCommand implements Callable<Integer> {

    @ParentCommand
    RedriveCli root;

    @Override
    public Integer call() {
        throw CliException.usage("name a breaker command: list, release or probe (see 'redrive breaker --help')");
    }

    /** The windows that hold {@code dependency}'s breaker now. */
    static List<String> holding(List<MaintenanceWindow> windows, String dependency, Instant now) {
        return BreakerHolds.holders(windows, dependency, now).stream()
                .map(MaintenanceWindow::id)
                .toList();
    }

    /** {@code dependency}'s breaker, or a usage error naming the breakers there are. */
    static BreakerState breakerOf(OperatorPort operator, String dependency) {
        Map<String, BreakerState> breakers = operator.breakers();
        BreakerState b = breakers.get(dependency);
        if (b == null) {
            String hint = Suggestions.didYouMean(dependency, breakers.keySet());
            throw CliException.usage("no circuit breaker of " + dependency + " is shared here"
                    + (hint.isEmpty() ? "" : ": " + hint) + " (the breakers are " + breakers.keySet() + ")");
        }
        return b;
    }

    /** {@code redrive breaker list}. */
    @Command(
            name = "list",
            header = "List the circuit breakers.",
            mixinStandardHelpOptions = true,
            usageHelpAutoWidth = true,
            sortOptions = false,
            description = "List each shared circuit breaker: its state, until when maintenance windows hold it and "
                    + "which, when the next probe may run, and its token (the count of its transitions; 'redrive "
                    + "stats' shows their history).",
            footerHeading = "%nExamples:%n",
            footer = {"  redrive breaker list", "  redrive breaker list --json"})
    static final class ListBreakers implements Callable<Integer> {

        @ParentCommand
        BreakerCommand parent;

        @Spec
        CommandSpec spec;

        @Option(names = "--json", order = 1, description = "Machine output: a JSON array.")
        boolean json;

        @Override
        public Integer call() {
            OperatorPort operator = parent.root.backend().operator();
            Map<String, BreakerState> breakers = operator.breakers();
            List<MaintenanceWindow> windows = operator.windows();
            Instant now = parent.root.context().clock().instant();
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                ArrayNode array = Json.array();
                breakers.forEach((dependency, b) -> {
                    ObjectNode n = array.addObject();
                    n.put("dependency", dependency);
                    n.put("state", b.status().name());
                    n.put("held", held(b, now));
                    n.putPOJO("heldBy", holding(windows, dependency, now));
                    n.put("openUntil", b.openUntil() == null ? null : Json.instant(b.openUntil()));
                    n.put("probeLeaseUntil", b.probeLeaseUntil() == null ? null : Json.instant(b.probeLeaseUntil()));
                    n.put("token", b.token());
                });
                Json.print(out, array);
                return ExitCodes.OK;
            }
            if (breakers.isEmpty()) {
                out.println("No circuit breakers are shared here.");
                out.flush();
                return ExitCodes.OK;
            }
            Table table = new Table(List.of("DEPENDENCY", "STATE", "HELD UNTIL", "HELD BY", "NEXT PROBE", "TOKEN"));
            breakers.forEach((dependency, b) -> {
                List<String> by = holding(windows, dependency, now);
                table.row(
                        dependency,
                        b.status(),
                        held(b, now) ? Durations.at(b.openUntil()) : "-",
                        by.isEmpty() ? "-" : String.join(",", by),
                        BreakerStats.nextProbe(b, now),
                        b.token());
            });
            table.print(out);
            breakers.forEach((dependency, b) -> {
                if (held(b, now)) {
                    out.println("'redrive breaker release --dependency " + dependency + "' ends its hold now.");
                }
            });
            out.flush();
            return ExitCodes.OK;
        }

        private static boolean held(BreakerState b, Instant now) {
            return b.held() && b.openUntil().isAfter(now);
        }
    }

    /** {@code redrive breaker release}. */
    @Command(
            name = "release",
            header = "End the hold of a circuit breaker now.",
            mixinStandardHelpOptions = true,
            usageHelpAutoWidth = true,
            sortOptions = false,
            description =
                    "End the hold of the dependency's circuit breaker now: every maintenance window that holds it "
                            + "stops holding it (it still approves the automation's replays; 'redrive window remove' removes "
                            + "it), and the breaker's open period ends, so the next call, a consumer's or a replay's, probes. A "
                            + "window that starts later still holds it from its start. Recorded in the breaker's history with "
                            + "your name.",
            footerHeading = "%nExamples:%n",
            footer = {"  redrive breaker release --dependency email-provider"})
    static final class Release implements Callable<Integer> {

        @ParentCommand
        BreakerCommand parent;

        @Spec
        CommandSpec spec;

        @Option(
                names = "--dependency",
                required = true,
                paramLabel = "NAME",
                order = 1,
                description = "The dependency whose breaker to release (see redrive breaker list).")
        String dependency;

        @Override
        public Integer call() {
            OperatorPort operator = parent.root.backend().operator();
            BreakerState before = breakerOf(operator, dependency);
            List<String> stopped;
            try {
                stopped = operator.releaseBreaker(dependency, parent.root.actor());
            } catch (IllegalArgumentException e) {
                throw CliException.usage(e.getMessage());
            }
            BreakerState after = operator.breakers().get(dependency);
            Instant now = parent.root.context().clock().instant();
            PrintWriter out = spec.commandLine().getOut();
            if (stopped.isEmpty() && after.equals(before)) {
                out.println("The " + dependency + " circuit breaker is not held (" + after.status() + ", next probe "
                        + BreakerStats.nextProbe(after, now) + "); nothing to release.");
            } else {
                out.println("Released the " + dependency + " circuit breaker"
                        + (stopped.isEmpty()
                                ? ""
                                : ": " + String.join(", ", stopped) + " no longer holds it (it still "
                                        + "approves replays)")
                        + "; it is " + after.status() + ", next probe " + BreakerStats.nextProbe(after, now)
                        + " (token " + after.token() + ").");
            }
            operator.windows().stream()
                    .filter(w -> w.holdsBreaker() && w.dependency().equals(dependency) && now.isBefore(w.start()))
                    .forEach(w -> out.println("Window " + w.id() + " holds it from " + Durations.at(w.start())
                            + " ('redrive window remove " + w.id() + "' if it should not)."));
            out.flush();
            return ExitCodes.OK;
        }
    }

    /** {@code redrive breaker probe}. */
    @Command(
            name = "probe",
            header = "Let the next call probe a circuit breaker now.",
            mixinStandardHelpOptions = true,
            usageHelpAutoWidth = true,
            sortOptions = false,
            description =
                    "End the open period of the dependency's circuit breaker now (or the lease of a probe that has "
                            + "not answered), so the next call is the probe: a consumer's, or one replay's (the sweeper's next "
                            + "run, or 'redrive replay'). A breaker held by maintenance windows is released first ('redrive "
                            + "breaker release'). Recorded in the breaker's history with your name.",
            footerHeading = "%nExamples:%n",
            footer = {"  redrive breaker probe --dependency email-provider"})
    static final class Probe implements Callable<Integer> {

        @ParentCommand
        BreakerCommand parent;

        @Spec
        CommandSpec spec;

        @Option(
                names = "--dependency",
                required = true,
                paramLabel = "NAME",
                order = 1,
                description = "The dependency whose breaker to probe (see redrive breaker list).")
        String dependency;

        @Override
        public Integer call() {
            OperatorPort operator = parent.root.backend().operator();
            BreakerState before = breakerOf(operator, dependency);
            BreakerState after;
            try {
                after = operator.probeBreaker(dependency, parent.root.actor());
            } catch (IllegalArgumentException e) {
                throw CliException.usage(e.getMessage()
                        + (before.held() ? "; 'redrive breaker release --dependency " + dependency + "' ends it" : ""));
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println((after.equals(before)
                            ? "The " + dependency + " circuit breaker's probe was due already"
                            : "The " + dependency + " circuit breaker's open period ends now")
                    + ": the next call, a consumer's or a replay's, probes (token " + after.token() + ").");
            out.flush();
            return ExitCodes.OK;
        }
    }
}
