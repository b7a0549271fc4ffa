package dev.redrive.localrun.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/** The start-up benchmark's figures: every start of every function under every option, and the table they make. */
final class StartupTable {

    private final List<String> functions;
    private final List<StartOption> options;
    private final Map<String, List<ColdStart>> starts = new LinkedHashMap<>();

    StartupTable(List<String> functions, List<StartOption> options) {
        this.functions = functions;
        this.options = options;
    }

    void add(String function, String option, ColdStart start) {
        starts.computeIfAbsent(key(function, option), k -> new ArrayList<>()).add(start);
    }

    private static String key(String function, String option) {
        return function + "/" + option;
    }

    static String describe(ColdStart s) {
        return s.counted()
                ? String.format(
                        Locale.ROOT,
                        "%,d ms (init %,d, first event %,d, CPU %,d ms, peak RSS %,d MB)%s",
                        s.totalMillis(),
                        s.initMillis(),
                        s.firstEventMillis(),
                        s.cpuMillis(),
                        s.peakRssKb() / 1024,
                        s.restored() ? ", checkpoint hooks ran" : "")
                : "not counted: " + s.problem().orElseThrow();
    }

    void print(PrintStream out) {
        out.println("process start to first handled event, per function and option (ms; p50 and p90 of the counted "
                + "starts, nearest rank; init = start to first poll; CPU = the sandbox's user + system time; RSS = its "
                + "peak resident set at the answer, MB)");
        out.printf(
                "%-24s %-15s %7s %9s %9s %9s %12s %9s %8s %9s%n",
                "function",
                "option",
                "starts",
                "p50",
                "p90",
                "p50 init",
                "p50 1st evt",
                "p50 CPU",
                "p50 RSS",
                "p50 ratio");
        Map<String, List<Double>> totals = new LinkedHashMap<>();
        Map<String, List<Double>> firstEvents = new LinkedHashMap<>();
        for (String f : functions) {
            List<ColdStart> baseline = counted(f, StartOption.BASELINE);
            for (StartOption o : options) {
                List<ColdStart> ok = counted(f, o.name());
                double ratio = ratio(ok, baseline, ColdStart::totalMillis);
                add(totals, o.name(), ratio);
                add(firstEvents, o.name(), ratio(ok, baseline, ColdStart::firstEventMillis));
                out.printf(
                        Locale.ROOT,
                        "%-24s %-15s %3d/%-3d %,9d %,9d %,9d %,12d %,9d %,8d %9s%n",
                        f,
                        o.name(),
                        ok.size(),
                        starts.getOrDefault(key(f, o.name()), List.of()).size(),
                        p(ok, ColdStart::totalMillis, 0.5),
                        p(ok, ColdStart::totalMillis, 0.9),
                        p(ok, ColdStart::initMillis, 0.5),
                        p(ok, ColdStart::firstEventMillis, 0.5),
                        p(ok, ColdStart::cpuMillis, 0.5),
                        p(ok, ColdStart::peakRssKb, 0.5) / 1024,
                        Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio));
            }
        }
        out.println();
        out.println("per option, the median over the functions of its p50 against " + StartOption.BASELINE
                + "'s: start to first handled event, and the first event alone");
        totals.forEach((o, r) ->
                out.printf(Locale.ROOT, "  %-15s %.2f   %.2f%n", o, median(r), median(firstEvents.getOrDefault(o, r))));
        starts.forEach((k, list) -> list.stream()
                .filter(s -> !s.counted())
                .forEach(s ->
                        out.println("not counted, " + k + ": " + s.problem().orElseThrow())));
    }

    private static double ratio(List<ColdStart> option, List<ColdStart> baseline, ToLongFunction<ColdStart> f) {
        long mine = p(option, f, 0.5);
        long theirs = p(baseline, f, 0.5);
        return mine > 0 && theirs > 0 ? (double) mine / theirs : Double.NaN;
    }

    private static void add(Map<String, List<Double>> ratios, String option, double ratio) {
        if (!Double.isNaN(ratio)) {
            ratios.computeIfAbsent(option, k -> new ArrayList<>()).add(ratio);
        }
    }

    private List<ColdStart> counted(String function, String option) {
        return starts.getOrDefault(key(function, option), List.of()).stream()
                .filter(ColdStart::counted)
                .toList();
    }

    /** The {@code q} quantile of {@code f} over {@code starts}, nearest rank; -1 when there are none. */
    static long p(List<ColdStart> starts, ToLongFunction<ColdStart> f, double q) {
        if (starts.isEmpty()) {
            return -1;
        }
        long[] v = starts.stream().mapToLong(f).sorted().toArray();
        int rank = (int) Math.ceil(q * v.length);
        return v[Math.max(0, rank - 1)];
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
