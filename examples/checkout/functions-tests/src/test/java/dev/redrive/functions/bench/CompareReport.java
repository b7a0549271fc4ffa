package dev.redrive.functions.bench;

import dev.redrive.functions.bench.CompareBenchmark.Side;
import dev.redrive.functions.bench.CompareBenchmark.Workload;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints {@link CompareBenchmark}'s figures as a Markdown table (docs/evidence.md quotes it as printed): every side per
 * workload, the ratios Redrive / each baseline, the calls behind them and whether the goal is met against the
 * first baseline. The sides are the baselines in order, then Redrive last.
 */
final class CompareReport {

    /** The goal: at least this many times the baseline's throughput ... */
    static final double THROUGHPUT_GOAL = 3.0;

    private final Map<Side, Map<Workload, BatchTally>> tallies;
    private final Map<Side, Integer> largestItemBytes;
    private final List<Side> sides;
    private final List<Side> baselines;
    private final Side redrive;

    CompareReport(Map<Side, Map<Workload, BatchTally>> tallies, Map<Side, Integer> largestItemBytes) {
        this.tallies = tallies;
        this.largestItemBytes = largestItemBytes;
        this.sides = new ArrayList<>(tallies.keySet());
        this.baselines = sides.subList(0, sides.size() - 1);
        this.redrive = sides.get(sides.size() - 1);
    }

    void print(PrintStream out) {
        out.println();
        out.println(
                "| workload | side | messages/s | p50 batch | p99 batch | DynamoDB calls/msg | WCU/msg | SQS calls/msg"
                        + " | most calls at once |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        for (Workload w : Workload.values()) {
            BatchTally first = tallies.get(sides.get(0)).get(w);
            String label = w.label + " (" + first.messages() + " msgs, " + first.batches() + " batches)";
            for (Side side : sides) {
                out.println(row(
                        side == sides.get(0) ? label : "",
                        side,
                        tallies.get(side).get(w)));
            }
            for (Side baseline : baselines) {
                out.println(ratio(w, baseline));
            }
        }
        out.println();
        StringBuilder sizes = new StringBuilder(WriteUnits.RULE + "; largest item:");
        for (Side side : sides) {
            sizes.append(' ')
                    .append(side.name())
                    .append(' ')
                    .append(largestItemBytes.get(side))
                    .append(" bytes,");
        }
        out.println(sizes.substring(0, sizes.length() - 1) + ".");
        out.println();
        details(out);
        out.println();
        goal(out);
    }

    private String row(String workload, Side side, BatchTally t) {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %.1f | %.1f ms | %.1f ms | %.2f | %.2f | %.2f | %d |",
                workload,
                side.name(),
                t.messagesPerSecond(),
                t.percentileMillis(0.50),
                t.percentileMillis(0.99),
                t.dynamoDbCallsPerMessage(),
                wcu(side, t),
                t.sqsCallsPerMessage(),
                t.mostConcurrent());
    }

    private String ratio(Workload w, Side baseline) {
        BatchTally b = tallies.get(baseline).get(w);
        BatchTally r = tallies.get(redrive).get(w);
        return String.format(
                Locale.ROOT,
                "| | **%s / %s** | **%.2f×** | %.2f | %.2f | %.2f | %.2f | | |",
                redrive.name(),
                baseline.name(),
                r.messagesPerSecond() / b.messagesPerSecond(),
                r.percentileMillis(0.50) / b.percentileMillis(0.50),
                r.percentileMillis(0.99) / b.percentileMillis(0.99),
                r.dynamoDbCallsPerMessage() / b.dynamoDbCallsPerMessage(),
                wcu(redrive, r) / wcu(baseline, b));
    }

    private double wcu(Side side, BatchTally t) {
        return t.writeUnitsPerMessage(largestItemBytes.get(side));
    }

    private void details(PrintStream out) {
        out.println("DynamoDB calls by operation over the timed batches ('!' = refused), and time inside them per"
                + " batch (summed over the batch's threads):");
        for (Workload w : Workload.values()) {
            for (Side side : sides) {
                BatchTally t = tallies.get(side).get(w);
                out.println(String.format(
                        Locale.ROOT,
                        "  %-48s %-14s %-44s %6.1f ms",
                        w.label,
                        side.name(),
                        t.dynamoDbCalls(),
                        t.dynamoDbMillisPerBatch()));
            }
        }
    }

    private void goal(PrintStream out) {
        Side baseline = baselines.get(0);
        out.println(String.format(
                Locale.ROOT,
                "Goal (issue 16): at least %.0f× the baseline's throughput at equal or fewer DynamoDB calls per"
                        + " message; the baseline of issue 16 is %s.",
                THROUGHPUT_GOAL,
                baseline.name()));
        for (Workload w : Workload.values()) {
            BatchTally b = tallies.get(baseline).get(w);
            BatchTally r = tallies.get(redrive).get(w);
            double speed = r.messagesPerSecond() / b.messagesPerSecond();
            boolean calls = r.dynamoDbCallsPerMessage() <= b.dynamoDbCallsPerMessage() + 1e-9;
            out.println(String.format(
                    Locale.ROOT,
                    "  %-48s throughput %.2f× (%s), calls per message %.2f vs %.2f (%s)",
                    w.label,
                    speed,
                    speed >= THROUGHPUT_GOAL ? "met" : "NOT met",
                    r.dynamoDbCallsPerMessage(),
                    b.dynamoDbCallsPerMessage(),
                    calls ? "met" : "NOT met"));
        }
    }
}
