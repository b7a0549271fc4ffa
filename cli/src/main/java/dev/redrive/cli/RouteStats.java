package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.DeadLetterSource.QueueDepth;
import dev.redrive.core.sweeper.Route;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** What {@code redrive stats} measures for one route. */
record RouteStats(
        Route route,
        QueueDepth source,
        QueueDepth deadLetters,
        QuarantineRecord oldestUnresolved,
        Duration oldestAge,
        Map<FailureClass, Integer> arrivals,
        Map<QuarantineState, Integer> states) {

    static RouteStats measure(Backend backend, Route route, Instant now, Duration since) {
        QueueDepth source = backend.queues().approximateDepth(route.sourceQueue());
        QueueDepth dlq = backend.queues().approximateDepth(route.deadLetterQueue());
        List<QuarantineRecord> records = backend.ledger().ofQueue(route.sourceQueue(), Integer.MAX_VALUE);
        Map<FailureClass, Integer> arrivals = new EnumMap<>(FailureClass.class);
        Map<QuarantineState, Integer> states = new EnumMap<>(QuarantineState.class);
        for (FailureClass c : FailureClass.values()) {
            arrivals.put(c, 0);
        }
        QuarantineRecord oldest = null;
        Instant from = now.minus(since);
        for (QuarantineRecord r : records) {
            states.merge(r.state(), 1, Integer::sum);
            if (!r.arrivedAt().isBefore(from)) {
                arrivals.merge(r.classification().failureClass(), 1, Integer::sum);
            }
            if (!r.state().resolved() && (oldest == null || r.arrivedAt().isBefore(oldest.arrivedAt()))) {
                oldest = r;
            }
        }
        return new RouteStats(route, source, dlq, oldest, oldest == null ? null : oldest.age(now), arrivals, states);
    }

    void print(PrintWriter out, Duration since) {
        out.println(route.consumer() + ": " + route.sourceQueue() + " -> " + route.deadLetterQueue());
        line(out, "source queue", source.toString());
        line(out, "dead-letter queue", deadLetters.toString());
        line(
                out,
                "oldest unresolved",
                oldestUnresolved == null
                        ? "none"
                        : Durations.format(oldestAge) + " (" + oldestUnresolved.id() + ", " + oldestUnresolved.state()
                                + ")");
        line(out, "arrivals, last " + Durations.format(since), join(arrivals));
        line(out, "by state", states.isEmpty() ? "none in the ledger" : join(states));
        out.println();
    }

    ObjectNode json() {
        ObjectNode n = Json.object();
        n.put("consumer", route.consumer());
        n.put("sourceQueue", route.sourceQueue());
        n.put("deadLetterQueue", route.deadLetterQueue());
        n.set("sourceDepth", depthJson(source));
        n.set("deadLetterDepth", depthJson(deadLetters));
        n.put("oldestUnresolvedId", oldestUnresolved == null ? null : oldestUnresolved.id());
        if (oldestAge == null) {
            n.putNull("oldestUnresolvedAgeSeconds");
        } else {
            n.put("oldestUnresolvedAgeSeconds", oldestAge.toSeconds());
        }
        ObjectNode a = n.putObject("arrivalsByClass");
        arrivals.forEach((c, count) -> a.put(c.name(), count));
        ObjectNode s = n.putObject("byState");
        states.forEach((state, count) -> s.put(state.name(), count));
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
