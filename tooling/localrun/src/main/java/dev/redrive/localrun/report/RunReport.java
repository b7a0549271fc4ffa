package dev.redrive.localrun.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report of a run: phases with wall times, and sections of figures, in insertion order; printed for people at
 * the end and written as JSON for machines. Checks (effects once per key, nothing unaccounted) decide the exit code.
 */
public final class RunReport {

    private final String scenario;
    private final Instant started = Instant.now();
    private final List<Map<String, Object>> phases = new ArrayList<>();
    private final Map<String, Object> sections = new LinkedHashMap<>();
    private final java.util.Set<String> jsonOnly = new java.util.HashSet<>();
    private final Map<String, Boolean> checks = new LinkedHashMap<>();
    private final List<String> story = new ArrayList<>();
    private long phaseStart = System.nanoTime();
    private String phase;

    public RunReport(String scenario) {
        this.scenario = scenario;
    }

    /** Ends the current phase (if any) and starts {@code name}. */
    public void phase(String name) {
        endPhase();
        phase = name;
        phaseStart = System.nanoTime();
    }

    public void endPhase() {
        if (phase != null) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("phase", phase);
            p.put("seconds", Math.round((System.nanoTime() - phaseStart) / 1e7) / 100.0);
            phases.add(p);
            phase = null;
        }
    }

    public void put(String section, Object value) {
        sections.put(section, value);
    }

    /** A section for machines only: in the JSON (and the HTML page), not in the printed report. */
    public void putJsonOnly(String section, Object value) {
        sections.put(section, value);
        jsonOnly.add(section);
    }

    /** A line of what happened, for people. */
    public void tell(String line) {
        story.add(line);
    }

    public void check(String name, boolean passed) {
        checks.put(name, passed);
    }

    public boolean passed() {
        return checks.values().stream().allMatch(Boolean::booleanValue);
    }

    public Map<String, Object> toMap() {
        endPhase();
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("scenario", scenario);
        all.put("startedAt", started.toString());
        all.put("phases", phases);
        all.putAll(sections);
        all.put("story", story);
        all.put("checks", checks);
        all.put("passed", passed());
        return all;
    }

    public void writeJson(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), toMap());
    }

    public void print(PrintStream out) {
        Map<String, Object> all = toMap();
        out.println();
        out.println("==== Redrive local run: " + scenario + " ====");
        out.println("Phases:");
        for (Map<String, Object> p : phases) {
            out.println(String.format(Locale.ROOT, "  %-34s %8.2f s", p.get("phase"), (Double) p.get("seconds")));
        }
        if (!story.isEmpty()) {
            out.println("What happened:");
            story.forEach(line -> out.println("  " + line));
        }
        for (Map.Entry<String, Object> s : sections.entrySet()) {
            if (jsonOnly.contains(s.getKey())) {
                continue;
            }
            out.println(s.getKey() + ":");
            print(out, s.getValue(), "  ");
        }
        out.println("Checks:");
        checks.forEach((name, ok) -> out.println("  " + (ok ? "PASS " : "FAIL ") + name));
        out.println(passed() ? "All checks passed." : "SOME CHECKS FAILED.");
        all.clear();
    }

    private static void print(PrintStream out, Object value, String indent) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getValue() instanceof Map<?, ?> || (e.getValue() instanceof List<?> l && l.size() > 3)) {
                    out.println(indent + e.getKey() + ":");
                    print(out, e.getValue(), indent + "  ");
                } else {
                    out.println(indent + e.getKey() + ": " + e.getValue());
                }
            }
        } else if (value instanceof List<?> list) {
            list.forEach(item -> out.println(indent + "- " + item));
        } else {
            out.println(indent + value);
        }
    }
}
