package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.operator.RouteStatus;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.sweeper.DeadLetterSource.QueueDepth;
import dev.redrive.core.sweeper.Route;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** How {@code redrive stats} shows one route's figures, as the operator port measured them at {@code now}. */
record RouteStats(RouteStatus status, Instant now) {

    void print(PrintWriter out, Duration since) {
        Route route = status.route();
        out.println(route.consumer() + ": " + route.sourceQueue() + " -> " + route.deadLetterQueue());
        line(out, "source queue", status.source().toString());
        line(out, "dead-letter queue", status.deadLetters().toString());
        line(
                out,
                "oldest unresolved",
                status.oldestUnresolved()
                        .map(r -> Durations.format(r.age(now)) + " (" + r.id() + ", " + r.state() + ")")
                        .orElse("none"));
        line(out, "arrivals, last " + Durations.format(since), join(status.arrivals()));
        line(out, "by state", status.byState().isEmpty() ? "none in the ledger" : join(status.byState()));
        out.println();
    }

    ObjectNode json() {
        Route route = status.route();
        Optional<QuarantineRecord> oldest = status.oldestUnresolved();
        ObjectNode n = Json.object();
        n.put("consumer", route.consumer());
        n.put("sourceQueue", route.sourceQueue());
        n.put("deadLetterQueue", route.deadLetterQueue());
        n.set("sourceDepth", depthJson(status.source()));
        n.set("deadLetterDepth", depthJson(status.deadLetters()));
        n.put("oldestUnresolvedId", oldest.map(QuarantineRecord::id).orElse(null));
        if (oldest.isEmpty()) {
            n.putNull("oldestUnresolvedAgeSeconds");
        } else {
            n.put("oldestUnresolvedAgeSeconds", oldest.get().age(now).toSeconds());
        }
        ObjectNode a = n.putObject("arrivalsByClass");
        status.arrivals().forEach((c, count) -> a.put(c.name(), count));
        ObjectNode s = n.putObject("byState");
        status.byState().forEach((state, count) -> s.put(state.name(), count));
        return n;
    }

    private static ObjectNode depthJson(QueueDepth d) {
        ObjectNode n = Json.object();
        n.put("visible", d.visible());
        n.put("inFlight", d.inFlight());
        n.put("delayed", d.delayed());
        return n;
    }

    private static void line(PrintWriter out, String name, String value) {
        out.println("  " + String.format("%-22s", name) + " " + value);
    }

    private static String join(Map<? extends Enum<?>, Integer> counts) {
        return counts.entrySet().stream()
                .map(e -> e.getKey().name() + " " + e.getValue())
                .collect(Collectors.joining(" · "));
    }
}
