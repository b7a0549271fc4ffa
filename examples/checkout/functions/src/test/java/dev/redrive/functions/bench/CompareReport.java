package dev.redrive.functions.bench;

import dev.redrive.functions.bench.CompareBenchmark.Side;
import dev.redrive.functions.bench.CompareBenchmark.Workload;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints {@link CompareBenchmark}'s figures as a Markdown table (docs/evidence.md quotes it as printed), the ratio Redrive /
 * baseline per workload, the calls behind them and whether the goal is met.
 */
final class CompareReport {

    /** The goal: at least this many times the baseline's throughput ... */
    static final double THROUGHPUT_GOAL = 3.0;

    private final Map<Side, Map<Workload, BatchTally>> tallies;
    private final Map<Side, Integer> largestItemBytes;
    private final Side baseline;
    private final Side redrive;

    CompareReport(Map<Side, Map<Workload, BatchTally>> tallies, Map<Side, Integer> largestItemBytes) {
        this.tallies = tallies;
        this.largestItemBytes = largestItemBytes;
        List<Side> sides = new ArrayList<>(tallies.keySet());
        this.baseline = sides.get(0);
        this.redrive = sides.get(1);
    }

    void print(PrintStream out) {
        out.println();
        out.println(
                "| workload | side | messages/s | p50 batch | p99 batch | DynamoDB calls/msg | WCU/msg | SQS calls/msg |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|");
        for (Workload w : Workload.values()) {
            BatchTally b = tallies.get(baseline).get(w);
            BatchTally r = tallies.get(redrive).get(w);
            out.println(row(w.label + " (" + b.messages() + " msgs, " + b.batches() + " batches)", baseline, b));
            out.println(row("", redrive, r));
            out.println(String.format(
                    Locale.ROOT,
                    "| | **%s / %s** | **%.2f×** | %.2f | %.2f | %.2f | %.2f | |",
                    redrive.name(),
                    baseline.name(),
                    r.messagesPerSecond() / b.messagesPerSecond(),
                    r.percentileMillis(0.50) / b.percentileMillis(0.50),
                    r.percentileMillis(0.99) / b.percentileMillis(0.99),
                    r.dynamoDbCallsPerMessage() / b.dynamoDbCallsPerMessage(),
                    wcu(redrive, r) / wcu(baseline, b)));
        }
        out.println();
        out.println(WriteUnits.RULE + "; largest item: " + baseline.name() + " "
                + largestItemBytes.get(baseline) + " bytes, " + redrive.name() + " " + largestItemBytes.get(redrive)
                + " bytes.");
        out.println();
        details(out);
        out.println();
        goal(out);
    }

    private String row(String workload, Side side, BatchTally t) {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %.1f | %.1f ms | %.1f ms | %.2f | %.2f | %.2f |",
                workload,
                side.name(),
                t.messagesPerSecond(),
                t.percentileMillis(0.50),
                t.percentileMillis(0.99),
                t.dynamoDbCallsPerMessage(),
                wcu(side, t),
                t.sqsCallsPerMessage());
    }

    private double wcu(Side side, BatchTally t) {
        return t.writeUnitsPerMessage(largestItemBytes.get(side));
    }

    private void details(PrintStream out) {
        out.println("DynamoDB calls by operation over the timed batches ('!' = refused), and time inside them per"
                + " batch (summed over the batch's threads):");
        for (Workload w : Workload.values()) {
            for (Side side : List.of(baseline, redrive)) {
                BatchTally t = tallies.get(side).get(w);
                out.println(String.format(
                        Locale.ROOT,
                        "  %-48s %-18s %-44s %6.1f ms",
                        w.label,
                        side.name(),
                        t.dynamoDbCalls(),
                        t.dynamoDbMillisPerBatch()));
            }
        }
    }

    private void goal(PrintStream out) {
        out.println(String.format(
                Locale.ROOT,
                "Goal (issue 16): at least %.0f× the baseline's throughput at equal or fewer DynamoDB calls per"
                        + " message.",
                THROUGHPUT_GOAL));
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
