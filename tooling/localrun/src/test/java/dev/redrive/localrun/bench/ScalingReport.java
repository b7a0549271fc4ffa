package dev.redrive.localrun.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** The scaling benchmark's figures: its table, and a chart as a static HTML page with inline SVG (no network). */
final class ScalingReport {

    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};

    private final List<Integer> sandboxes;
    private final List<Integer> depths;
    private final List<ScalingPoint> points = new ArrayList<>();
    private final List<EmulatorAlone.Rate> moto = new ArrayList<>();
    private final List<EmulatorAlone.Rate> elasticMq = new ArrayList<>();

    ScalingReport(List<Integer> sandboxes, List<Integer> depths) {
        this.sandboxes = sandboxes;
        this.depths = depths;
    }

    void add(ScalingPoint p) {
        points.add(p);
    }

    void motoAlone(EmulatorAlone.Rate r) {
        moto.add(r);
    }

    void elasticMqAlone(EmulatorAlone.Rate r) {
        elasticMq.add(r);
    }

    static final String HEADER = String.format(
            Locale.ROOT,
            "%7s %9s %10s %9s %9s %10s %8s | %7s %6s %7s %9s %6s",
            "depth",
            "sandboxes",
            "messages/s",
            "DDB/msg",
            "DDB ms",
            "S3+SQS/msg",
            "timeouts",
            "machine",
            "moto",
            "runner",
            "sandboxes",
            "load");

    static String row(ScalingPoint p) {
        return String.format(
                Locale.ROOT,
                "%,7d %9d %10.1f %9.2f %9.1f %10.2f %8d | %7.2f %6.2f %7.2f %9.2f %6s",
                p.depth(),
                p.sandboxes(),
                p.messagesPerSecond(),
                p.dynamoDbCallsPerMessage(),
                p.dynamoDbMillis(),
                p.messages() == 0 ? Double.NaN : (double) p.otherCalls() / p.messages(),
                p.timeouts(),
                p.cpu().machine(),
                p.cpu().moto(),
                p.cpu().runner(),
                p.cpu().sandboxes(),
                p.loadAverage());
    }

    void print(PrintStream out) {
        out.println("the email consumer through the local run's path, per queue depth and sandboxes: messages handled "
                + "and deleted a second over the window; the sandboxes' DynamoDB calls per message and the mean time "
                + "DynamoDB took to answer one (ms); their S3 and SQS calls per message; invocations timed out; and "
                + "cores used (CPU seconds a second, of " + Runtime.getRuntime().availableProcessors()
                + "): the whole machine (other work included), moto, this JVM (ElasticMQ, the poller, the proxies, "
                + "the producer), the sandboxes; the one-minute load average");
        out.println(HEADER);
        points.forEach(p -> out.println(row(p)));
        out.println();
        out.println("the emulators alone, driven from this JVM with no sandbox, poller or proxy: moto with the email "
                + "consumer's calls for a new message (claim PutItem, email S3 PUT, completion UpdateItem), ElasticMQ "
                + "with the mapping's (ReceiveMessage of 10, DeleteMessageBatch; its queue topped up meanwhile); the "
                + "cores moto and the whole machine used");
        out.printf(
                "%8s %11s %9s %6s %8s | %15s %9s %8s%n",
                "threads", "moto msg/s", "calls/s", "moto", "machine", "ElasticMQ msg/s", "calls/s", "machine");
        for (int i = 0; i < Math.max(moto.size(), elasticMq.size()); i++) {
            EmulatorAlone.Rate m = i < moto.size() ? moto.get(i) : null;
            EmulatorAlone.Rate q = i < elasticMq.size() ? elasticMq.get(i) : null;
            out.printf(
                    Locale.ROOT,
                    "%8d %11s %9s %6s %8s | %15s %9s %8s%n",
                    m != null ? m.threads() : q.threads(),
                    m == null ? "-" : one(m.messagesPerSecond()),
                    m == null ? "-" : one(m.callsPerSecond()),
                    m == null ? "-" : two(m.cpu().moto()),
                    m == null ? "-" : two(m.cpu().machine()),
                    q == null ? "-" : one(q.messagesPerSecond()),
                    q == null ? "-" : one(q.callsPerSecond()),
                    q == null ? "-" : two(q.cpu().machine()));
        }
    }

    private static String one(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String two(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** One line of a chart: its label, colour, and a value per number of sandboxes (NaN: none). */
    private record Series(String label, String colour, double[] values) {}

    /**
     * Writes the chart: messages a second and DynamoDB calls per message against sandboxes, a line per depth; and
     * where the CPU went at the largest depth.
     */
    void writeChart(Path file) throws IOException {
        double motoBest = moto.stream()
                .mapToDouble(EmulatorAlone.Rate::messagesPerSecond)
                .max()
                .orElse(Double.NaN);
        int deepest = depths.get(depths.size() - 1);
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Redrive scaling</title>"
                + "<style>body{font-family:sans-serif;margin:24px}svg{margin-right:24px}</style></head><body>"
                + "<h1>The email consumer through the local run's path</h1><p>Messages handled a second and DynamoDB "
                + "calls per message, against the consumer's sandboxes; a line per queue depth. Dashed: moto alone "
                + "with the consumer's calls (best of its thread counts). Then the cores each part used at depth "
                + String.format(Locale.ROOT, "%,d", deepest) + ". From <code>bin/benchmark scaling</code>.</p>");
        html.append(panel("messages a second", byDepth(ScalingPoint::messagesPerSecond), motoBest, "moto alone"));
        html.append(
                panel("DynamoDB calls per message", byDepth(ScalingPoint::dynamoDbCallsPerMessage), Double.NaN, ""));
        html.append(panel(
                "cores used, depth " + String.format(Locale.ROOT, "%,d", deepest),
                List.of(
                        new Series(
                                "machine",
                                "#000000",
                                values(deepest, p -> p.cpu().machine())),
                        new Series(
                                "moto", "#d62728", values(deepest, p -> p.cpu().moto())),
                        new Series(
                                "sandboxes",
                                "#1f77b4",
                                values(deepest, p -> p.cpu().sandboxes())),
                        new Series(
                                "runner",
                                "#2ca02c",
                                values(deepest, p -> p.cpu().runner()))),
                Runtime.getRuntime().availableProcessors(),
                "cores"));
        html.append("<pre>").append(HEADER).append('\n');
        points.forEach(p -> html.append(row(p)).append('\n'));
        html.append("</pre></body></html>\n");
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, html, StandardCharsets.UTF_8);
    }

    private List<Series> byDepth(ToDoubleFunction<ScalingPoint> y) {
        List<Series> series = new ArrayList<>();
        for (int d = 0; d < depths.size(); d++) {
            series.add(new Series(
                    String.format(Locale.ROOT, "depth %,d", depths.get(d)),
                    COLOURS[d % COLOURS.length],
                    values(depths.get(d), y)));
        }
        return series;
    }

    private double[] values(int depth, ToDoubleFunction<ScalingPoint> y) {
        double[] v = new double[sandboxes.size()];
        for (int i = 0; i < v.length; i++) {
            int count = sandboxes.get(i);
            v[i] = points.stream()
                    .filter(p -> p.depth() == depth && p.sandboxes() == count)
                    .mapToDouble(y)
                    .findFirst()
                    .orElse(Double.NaN);
        }
        return v;
    }

    private String panel(String title, List<Series> series, double reference, String referenceLabel) {
        int w = 460;
        int h = 320;
        int left = 60;
        int top = 40;
        int plotW = w - left - 20;
        int plotH = h - top - 50;
        double max = series.stream()
                .flatMapToDouble(s -> java.util.Arrays.stream(s.values()))
                .filter(v -> !Double.isNaN(v))
                .max()
                .orElse(1);
        max = Double.isNaN(reference) ? max : Math.max(max, reference);
        max = max <= 0 ? 1 : max * 1.1;
        StringBuilder svg = new StringBuilder(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">"
                        + "<text x=\"%d\" y=\"20\" font-size=\"15\">%s</text>"
                        + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>"
                        + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>"
                        + "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">sandboxes</text>",
                w,
                h,
                left,
                title,
                left,
                top + plotH,
                left + plotW,
                top + plotH,
                left,
                top,
                left,
                top + plotH,
                left + plotW / 2,
                h - 12));
        for (int t = 0; t <= 4; t++) {
            double v = max * t / 4;
            double py = top + plotH - plotH * t / 4.0;
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>"
                            + "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>",
                    left - 6,
                    py + 4,
                    tick(v),
                    left + 1,
                    py,
                    left + plotW,
                    py));
        }
        for (int i = 0; i < sandboxes.size(); i++) {
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d</text>",
                    x(i, left, plotW),
                    top + plotH + 16,
                    sandboxes.get(i)));
        }
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < s.values().length; i++) {
                if (Double.isNaN(s.values()[i])) {
                    continue;
                }
                double px = x(i, left, plotW);
                double py = top + plotH - plotH * s.values()[i] / max;
                line.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                svg.append(String.format(
                        Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", px, py, s.colour()));
            }
            svg.append(String.format(
                    Locale.ROOT,
                    "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>"
                            + "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">%s</text>",
                    line.toString().trim(),
                    s.colour(),
                    left + 8 + 90 * k,
                    top - 6,
                    s.colour(),
                    s.label()));
        }
        if (!Double.isNaN(reference)) {
            double py = top + plotH - plotH * reference / max;
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"5,4\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" fill=\"#555\">%s %s"
                            + "</text>",
                    left,
                    py,
                    left + plotW,
                    py,
                    left + plotW,
                    py - 4,
                    referenceLabel,
                    tick(reference)));
        }
        return svg.append("</svg>").toString();
    }

    private static String tick(double v) {
        return v == 0 ? "0" : v >= 10 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private double x(int i, int left, int plotW) {
        return sandboxes.size() == 1 ? left + plotW / 2.0 : left + 20 + (plotW - 40) * i / (sandboxes.size() - 1.0);
    }
}
