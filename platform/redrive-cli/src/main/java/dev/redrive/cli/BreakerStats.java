package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerTransition;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * How {@code redrive stats} shows the circuit breakers, as every sandbox shares them at {@code now}: state, since when
 * it has been open, its current open period, when it lets the next probe through (or until when the probe holds it),
 * and its token (the count of its transitions); then each breaker's history, its last transitions newest first, with
 * when, how long ago, from and to which state, and why.
 */
record BreakerStats(Map<String, BreakerState> breakers, Map<String, List<BreakerTransition>> histories, Instant now) {

    void print(PrintWriter out) {
        out.println("Circuit breakers (shared by every sandbox; open: calls refused, messages deferred)");
        if (breakers.isEmpty()) {
            out.println("  none configured");
        }
        Table table = new Table(List.of("DEPENDENCY", "STATE", "OPEN FOR", "PERIOD", "NEXT PROBE", "TRANSITIONS"));
        breakers.forEach((dependency, b) -> table.row(
                dependency,
                b.status(),
                b.openedAt() == null ? "-" : Durations.format(Duration.between(b.openedAt(), now)),
                b.openPeriod() == null ? "-" : Durations.format(b.openPeriod()),
                nextProbe(b),
                b.token()));
        if (!table.isEmpty()) {
            table.print(out, "  ");
        }
        histories.forEach((dependency, history) -> {
            if (history.isEmpty()) {
                return;
            }
            out.println();
            out.println("  History of " + dependency + " (newest first; the last " + BreakerTransition.KEPT
                    + " transitions are kept)");
            Table transitions = new Table(List.of("AT", "AGO", "TRANSITION", "TOKEN", "WHY"));
            history.forEach(t -> transitions.row(
                    Durations.at(t.at()),
                    Durations.format(Duration.between(t.at(), now)),
                    t.from() + " -> " + t.to(),
                    t.token(),
                    t.reason()));
            transitions.print(out, "    ");
        });
        out.println();
    }

    private String nextProbe(BreakerState b) {
        return nextProbe(b, now);
    }

    /** When {@code b} lets its next probe through, as of {@code now}, in words. */
    static String nextProbe(BreakerState b, Instant now) {
        return switch (b.status()) {
            case CLOSED -> "-";
            case OPEN ->
                now.isBefore(b.openUntil()) ? "in " + Durations.format(Duration.between(now, b.openUntil())) : "now";
            case HALF_OPEN ->
                now.isBefore(b.probeLeaseUntil())
                        ? "probing, lease " + Durations.format(Duration.between(now, b.probeLeaseUntil()))
                        : "now (the probe's lease lapsed)";
        };
    }

    void json(ObjectNode parent) {
        ObjectNode all = parent.putObject("breakers");
        breakers.forEach((dependency, b) -> {
            ObjectNode n = all.putObject(dependency);
            n.put("state", b.status().name());
            n.put("token", b.token());
            if (b.openedAt() != null) {
                n.put("openedAt", b.openedAt().toString());
                n.put("openForSeconds", Duration.between(b.openedAt(), now).toSeconds());
                n.put("openPeriodSeconds", b.openPeriod().toSeconds());
            }
            if (b.openUntil() != null) {
                n.put("openUntil", b.openUntil().toString());
            }
            if (b.probeLeaseUntil() != null) {
                n.put("probeLeaseUntil", b.probeLeaseUntil().toString());
            }
            ArrayNode history = n.putArray("history");
            histories.getOrDefault(dependency, List.of()).forEach(t -> {
                ObjectNode entry = history.addObject();
                entry.put("token", t.token());
                entry.put("at", t.at().toString());
                entry.put("from", t.from().name());
                entry.put("to", t.to().name());
                entry.put("reason", t.reason());
            });
        });
    }
}
