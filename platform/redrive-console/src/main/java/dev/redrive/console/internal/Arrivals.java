package dev.redrive.console.internal;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A route's arrivals over a period as a time × failure class matrix: the period cut into equal buckets, each counting
 * the dead letters (every state, tombstones included, as the overview's totals) that arrived in the ledger in it. The
 * overview's chart draws it; the counts come from the operator port's arrivals since the first bucket (the period's
 * records, not the queue's history), the version in effect at its start from the last dead letter before it.
 *
 * @param start  the first bucket's start, epoch seconds
 * @param step   a bucket's length in seconds
 * @param times  each bucket's start, epoch seconds
 * @param counts by class, one count per bucket
 * @param markers where the consumer's build version changed: the arrival (epoch seconds) of each dead letter of the
 *                period that failed in another version than the dead letter before it (earlier ones included; those
 *                with no version recorded are passed over), oldest first
 */
public record Arrivals(
        long start, long step, List<Long> times, Map<String, List<Long>> counts, List<VersionMarker> markers) {

    /**
     * The build version changed at {@code at} (epoch seconds), from {@code from} to {@code version}.
     *
     * @param from the version before it
     */
    public record VersionMarker(long at, String version, String from) {}

    /** The matrix of {@code queue} over {@code since} before {@code now}, in {@code buckets} buckets. */
    public static Arrivals of(OperatorPort operator, String queue, Duration since, int buckets, Instant now) {
        long step = Math.max(1, since.toSeconds() / buckets);
        // Whole seconds (now rounded up): each bucket is exactly [times[i], times[i] + step), the window its drill-down
        // lists, so a bucket's count and its dead letters agree.
        Instant whole = now.truncatedTo(ChronoUnit.SECONDS);
        Instant end = whole.equals(now) ? now : whole.plusSeconds(1);
        Instant start = end.minusSeconds(step * buckets);
        long[][] cells = new long[FailureClass.values().length][buckets];
        List<VersionMarker> markers = new ArrayList<>();
        // the version in effect when the period starts: the last recorded before it (one record, not the history)
        String version = operator.lastArrivedBefore(
                        queue, start, r -> !r.buildVersion().isEmpty())
                .map(QuarantineRecord::buildVersion)
                .orElse("");
        for (QuarantineRecord r : operator.arrivedSince(queue, start)) {
            if (!r.arrivedAt().isBefore(end)) {
                continue;
            }
            String v = r.buildVersion();
            boolean changed = !v.isEmpty() && !v.equals(version);
            if (!v.isEmpty()) {
                String from = version;
                version = v;
                if (changed && !from.isEmpty()) {
                    markers.add(new VersionMarker(r.arrivedAt().getEpochSecond(), v, from));
                }
            }
            int bucket = (int)
                    Math.min(buckets - 1, Duration.between(start, r.arrivedAt()).toSeconds() / step);
            cells[r.classification().failureClass().ordinal()][bucket]++;
        }
        Long[] times = new Long[buckets];
        for (int i = 0; i < buckets; i++) {
            times[i] = start.getEpochSecond() + i * step;
        }
        Map<String, List<Long>> counts = new LinkedHashMap<>();
        for (FailureClass c : FailureClass.values()) {
            counts.put(
                    c.name(),
                    java.util.Arrays.stream(cells[c.ordinal()]).boxed().toList());
        }
        return new Arrivals(start.getEpochSecond(), step, List.of(times), counts, List.copyOf(markers));
    }
}
