package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.aws.queues.QueueAddress;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/** {@code redrive stats}: depth, age, arrivals and replay success, per route; the circuit breakers' state. */
@Command(
        name = "stats",
        header = "Queue depths, oldest dead letter, arrivals, replay success rate, circuit breakers.",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = {
            "Per route (source queue and its dead-letter queue): the depth of both queues (SQS "
                    + "GetQueueAttributes), the age of the oldest unresolved dead letter, arrivals by failure class, "
                    + "dead letters by state; then the replay success rate by class (a replay that comes back to the "
                    + "DLQ counts as a failure), from the sweeper's replay statistics; then each circuit breaker "
                    + "the consumers share (control table): state, how long it has been open, its period, the next "
                    + "probe, its transitions.",
            "Routes come from REDRIVE_ROUTES (or --routes); --queue looks at one queue, finding its "
                    + "dead-letter queue from its redrive policy when it is not a configured route."
        },
        footerHeading = "%nExamples:%n",
        footer = {"  redrive stats", "  redrive stats --queue orders-receipts --since 7d", "  redrive stats --json"})
final class StatsCommand implements Callable<Integer> {

    @ParentCommand
    RedriveCli root;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--queue",
            paramLabel = "NAME",
            order = 1,
            description = "Only this source queue (name); need not be a configured route. A route's dead-letter "
                    + "queue stands for its source queue; a queue SQS does not have is an error naming the routes'.")
    String queue;

    @Option(
            names = "--since",
            paramLabel = "AGE",
            defaultValue = "24h",
            order = 2,
            description = "The period arrivals are counted over; default ${DEFAULT-VALUE}.")
    Duration since;

    @Option(names = "--json", order = 3, description = "Machine output: one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        Backend backend = root.backend();
        List<Route> routes = routes(backend);
        Instant now = root.context().clock().instant();
        List<RouteStats> stats = new ArrayList<>();
        for (Route r : routes) {
            stats.add(new RouteStats(backend.operator().status(r, since), now));
        }
        Map<FailureClass, ReplayStats.Totals> replays = backend.operator().replayTotals();
        BreakerStats breakers = new BreakerStats(
                backend.operator().breakers(), backend.operator().breakerHistories(), now);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            ObjectNode n = Json.object();
            ArrayNode array = n.putArray("routes");
            stats.forEach(s -> array.add(s.json()));
            ObjectNode success = n.putObject("replays");
            replays.forEach((c, t) -> {
                ObjectNode o = success.putObject(c.name());
                o.put("sent", t.sent());
                o.put("returned", t.returned());
                o.put("successRate", t.successRate());
            });
            breakers.json(n);
            Json.print(out, n);
            return ExitCodes.OK;
        }
        stats.forEach(s -> s.print(out, since));
        out.println("Replay success rate (all routes; a replay that dead-letters again is a failure)");
        if (replays.isEmpty()) {
            out.println("  no replays recorded yet");
        }
        Table table = new Table(List.of("CLASS", "SENT", "RETURNED", "SUCCESS"), 0, 0, 0, 0);
        replays.forEach((c, t) ->
                table.row(c, t.sent(), t.returned(), String.format(Locale.ROOT, "%.1f%%", 100 * t.successRate())));
        if (!table.isEmpty()) {
            table.print(out, "  ");
        }
        out.println();
        breakers.print(out);
        out.flush();
        return ExitCodes.OK;
    }

    private List<Route> routes(Backend backend) {
        List<Route> configured = backend.routes();
        if (queue == null) {
            if (configured.isEmpty()) {
                throw CliException.config(
                        "no routes configured: set " + Settings.ROUTES + " (or --routes), or pass " + "--queue NAME");
            }
            return configured;
        }
        String name = Known.sourceQueue(
                backend, QueueAddress.nameOf(queue), spec.commandLine().getErr(), "redrive stats");
        try {
            return List.of(backend.routeOf(name));
        } catch (QueueDoesNotExistException e) {
            throw Known.noSuchQueue(backend, name);
        }
    }
}
