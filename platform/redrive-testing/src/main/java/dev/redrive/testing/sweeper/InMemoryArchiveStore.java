package dev.redrive.testing.sweeper;

import dev.redrive.core.sweeper.ArchiveStore;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The in-memory fake of the archive store: keeps each written object's entries under its reference. */
public final class InMemoryArchiveStore implements ArchiveStore {
    private final Map<String, List<Entry>> objects = new LinkedHashMap<>();

    @Override
    public synchronized String write(String sourceQueue, LocalDate day, List<Entry> entries) {
        String ref = "archive/queue=" + sourceQueue + "/date=" + day + "/" + (objects.size() + 1) + ".jsonl.gz";
        objects.put(ref, List.copyOf(entries));
        return ref;
    }

    public synchronized Map<String, List<Entry>> objects() {
        return Map.copyOf(objects);
    }
}
