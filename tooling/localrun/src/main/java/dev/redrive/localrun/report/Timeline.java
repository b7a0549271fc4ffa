package dev.redrive.localrun.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Figures sampled over a run, for the report's charts: a list of charts, each with named series, and one value per
 * series at each sample time (seconds since the run started). A series with no value at a sample holds its last.
 */
public final class Timeline {

    /**
     * One chart: its id, title, unit, the series drawn in it, and whether its values are counts (whole numbers: its
     * axis gets whole-number ticks).
     */
    public record Chart(String id, String title, String unit, List<String> series, boolean counts) {
        public Chart {
            series = List.copyOf(series);
        }

        /** A chart of measurements (not counts). */
        public Chart(String id, String title, String unit, List<String> series) {
            this(id, title, unit, series, false);
        }

        /** A chart of counts (messages, records, replays...): whole-number ticks. */
        public static Chart ofCounts(String id, String title, String unit, List<String> series) {
            return new Chart(id, title, unit, series, true);
        }
    }

    private final List<Chart> charts;
    private final List<Double> times = new ArrayList<>();
    private final Map<String, List<Double>> values = new LinkedHashMap<>();

    public Timeline(List<Chart> charts) {
        this.charts = List.copyOf(charts);
        for (Chart c : charts) {
            for (String s : c.series()) {
                values.put(c.id() + "/" + s, new ArrayList<>());
            }
        }
    }

    public List<Chart> charts() {
        return charts;
    }

    /** Adds a sample: for each chart id, the value of each of its series. */
    public synchronized void sample(double seconds, Map<String, Map<String, ? extends Number>> byChart) {
        times.add(Math.round(seconds * 10) / 10.0);
        for (Chart c : charts) {
            Map<String, ? extends Number> these = byChart.getOrDefault(c.id(), Map.of());
            for (String s : c.series()) {
                List<Double> line = values.get(c.id() + "/" + s);
                Number v = these.get(s);
                double last = line.isEmpty() ? 0 : line.get(line.size() - 1);
                line.add(v == null ? last : Math.round(v.doubleValue() * 100) / 100.0);
            }
        }
    }

    public synchronized int samples() {
        return times.size();
    }

    /** The series of one chart, by name, as sampled. */
    public synchronized Map<String, List<Double>> seriesOf(String chartId) {
        Map<String, List<Double>> out = new LinkedHashMap<>();
        for (Chart c : charts) {
            if (c.id().equals(chartId)) {
                c.series().forEach(s -> out.put(s, List.copyOf(values.get(c.id() + "/" + s))));
            }
        }
        return out;
    }

    /** {@code {"t": [...], "charts": [{"id", "title", "unit", "counts", "series": {"name": [...]}}]}}. */
    public synchronized Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", List.copyOf(times));
        List<Map<String, Object>> cs = new ArrayList<>();
        for (Chart c : charts) {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("id", c.id());
            cm.put("title", c.title());
            cm.put("unit", c.unit());
            cm.put("counts", c.counts());
            Map<String, Object> series = new LinkedHashMap<>();
            c.series().forEach(s -> series.put(s, List.copyOf(values.get(c.id() + "/" + s))));
            cm.put("series", series);
            cs.add(cm);
        }
        m.put("charts", cs);
        return m;
    }
}
