package dev.redrive.core.consumer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened to each message of a batch, in batch order, and which ones must be reported back as failed
 * (the partial batch response).
 */
public record BatchReport(List<Entry> entries, List<String> failedMessageIds) {

    public BatchReport {
        entries = List.copyOf(entries);
        failedMessageIds = List.copyOf(failedMessageIds);
    }

    /** One message and its outcome. */
    public record Entry(IncomingMessage message, MessageOutcome outcome) {}

    public List<MessageOutcome> outcomes() {
        List<MessageOutcome> outcomes = new ArrayList<>(entries.size());
        entries.forEach(e -> outcomes.add(e.outcome()));
        return outcomes;
    }

    /** Counts of outcomes by their type name (Applied, Duplicate, RetryLater...). */
    public Map<String, Integer> countsByOutcome() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Entry e : entries) {
            counts.merge(e.outcome().getClass().getSimpleName(), 1, Integer::sum);
        }
        return counts;
    }
}
