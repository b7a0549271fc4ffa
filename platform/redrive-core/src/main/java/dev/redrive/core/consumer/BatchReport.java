package dev.redrive.core.consumer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened to each message of a batch, in batch order, and which ones must be reported back as failed
 * (the partial batch response).
 *
 * @param entries              each message with its outcome
 * @param failedMessageIds     the messages reported back as failed: they stay in the queue
 * @param visibilityNotChanged messages whose retry delay could not be set (the queue refused or could not be
 *                             reached): they come back after the queue's visibility timeout instead; never dropped
 *                             silently, the handler logs and counts them
 */
public record BatchReport(List<Entry> entries, List<String> failedMessageIds, List<String> visibilityNotChanged) {

    public BatchReport {
        entries = List.copyOf(entries);
        failedMessageIds = List.copyOf(failedMessageIds);
        visibilityNotChanged = List.copyOf(visibilityNotChanged);
    }

    /** A report whose visibility changes all went through. */
    public BatchReport(List<Entry> entries, List<String> failedMessageIds) {
        this(entries, failedMessageIds, List.of());
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
