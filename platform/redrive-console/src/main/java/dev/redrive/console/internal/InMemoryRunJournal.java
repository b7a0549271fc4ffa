package dev.redrive.console.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run journal that lasts as long as the console: for a console given no state directory (an embedded one, a test).
 * Its runs cannot be resumed by another process.
 */
public final class InMemoryRunJournal implements RunJournal {

    private final Map<String, Run> runs = new LinkedHashMap<>();
    private final Map<String, List<Line>> outcomes = new LinkedHashMap<>();

    @Override
    public synchronized void save(Run run) {
        runs.put(run.id(), run);
    }

    @Override
    public synchronized void append(String runId, Line outcome) {
        outcomes.computeIfAbsent(runId, k -> new ArrayList<>()).add(outcome);
    }

    @Override
    public synchronized List<Stored> load() {
        List<Stored> stored = new ArrayList<>();
        runs.values().forEach(r -> stored.add(new Stored(r, List.copyOf(outcomes.getOrDefault(r.id(), List.of())))));
        return stored;
    }
}
