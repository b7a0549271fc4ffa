package dev.redrive.functions.sweeper;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.functions.metrics.ConsumerMetrics;
import dev.redrive.functions.metrics.EmfOutput;
import java.util.List;
import java.util.Map;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * The sweeper's metrics, as Embedded Metric Format, namespace {@value ConsumerMetrics#NAMESPACE}: without dimensions
 * {@code OldestUnresolvedQuarantineAgeSeconds}, {@code ReplaysSent} and {@code ReplaysReturned} (this run's counts:
 * the replay success rate alarm sums them over a window), {@code ReplaySuccessRate} (all-time, for the dashboard),
 * {@code Replayed}, {@code AlreadyApplied}, {@code ReplayRefused}, {@code ReplayDeferred}, {@code Archived}; by
 * {@code FailureClass}
 * {@code Quarantined}, {@code ReplayFailed} and {@code ReplaySuccessRate}; by {@code DeadLetterQueue}
 * {@code DeadLetterQueueDepth} (from the queue's attributes, before the sweep), {@code OldestDeadLetterAgeSeconds} (the
 * oldest arrival this run) and {@code Arrivals}; by {@code DeadLetterQueue} and {@code State} {@code Quarantine}.
 */
public final class SweeperMetrics {

    private final EmfOutput output;

    public SweeperMetrics(EmfOutput output) {
        this.output = output;
    }

    public void export(List<SweepReport> reports, Map<FailureClass, ReplayStats.Totals> totals) {
        MetricsLogger overall = logger(null);
        long oldest = 0;
        int replayed = 0;
        int alreadyApplied = 0;
        int refused = 0;
        int deferred = 0;
        int archived = 0;
        int replaysSent = 0;
        int replaysReturned = 0;
        for (SweepReport r : reports) {
            oldest = Math.max(
                    oldest,
                    r.oldestUnresolvedAge().map(java.time.Duration::toSeconds).orElse(0L));
            replayed += r.replayOutcomes().getOrDefault("Sent", 0);
            alreadyApplied += r.replayOutcomes().getOrDefault("AlreadyApplied", 0);
            refused += r.replayOutcomes().getOrDefault("Refused", 0);
            deferred += r.replayOutcomes().getOrDefault("Deferred", 0);
            archived += r.archivedToStoreCount();
            replaysSent += sum(r.replaysSentByClass());
            replaysReturned += sum(r.replaysReturnedByClass());
        }
        overall.putMetric("OldestUnresolvedQuarantineAgeSeconds", oldest, Unit.SECONDS);
        overall.putMetric("Replayed", replayed, Unit.COUNT);
        overall.putMetric("AlreadyApplied", alreadyApplied, Unit.COUNT);
        overall.putMetric("ReplayRefused", refused, Unit.COUNT);
        overall.putMetric("ReplayDeferred", deferred, Unit.COUNT);
        overall.putMetric("Archived", archived, Unit.COUNT);
        // This run's counts, summed over a window by the alarm: all-time totals would let early failures hold it.
        overall.putMetric("ReplaysSent", replaysSent, Unit.COUNT);
        overall.putMetric("ReplaysReturned", replaysReturned, Unit.COUNT);
        long sent = totals.values().stream().mapToLong(ReplayStats.Totals::sent).sum();
        long returned =
                totals.values().stream().mapToLong(ReplayStats.Totals::returned).sum();
        overall.putMetric("ReplaySuccessRate", new ReplayStats.Totals(sent, returned).successRate(), Unit.NONE);
        overall.flush();
        for (FailureClass c : FailureClass.values()) {
            int quarantined = reports.stream()
                    .mapToInt(r -> r.quarantinedByClass().getOrDefault(c, 0))
                    .sum();
            int failed = reports.stream()
                    .mapToInt(r -> r.replaysReturnedByClass().getOrDefault(c, 0))
                    .sum();
            ReplayStats.Totals t = totals.get(c);
            if (quarantined == 0 && failed == 0 && t == null) {
                continue;
            }
            MetricsLogger byClass = logger(c);
            byClass.putMetric("Quarantined", quarantined, Unit.COUNT);
            byClass.putMetric("ReplayFailed", failed, Unit.COUNT);
            if (t != null) {
                byClass.putMetric("ReplaySuccessRate", t.successRate(), Unit.NONE);
            }
            byClass.flush();
        }
    }

    private static int sum(Map<FailureClass, Integer> counts) {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The per-queue figures of one sweep. */
    public record QueueFigures(
            String deadLetterQueue, long depthBefore, SweepReport report, java.util.Map<String, Long> byState) {}

    public void exportQueues(List<QueueFigures> queues) {
        for (QueueFigures q : queues) {
            MetricsLogger perQueue = new MetricsLogger(output);
            perQueue.setNamespace(ConsumerMetrics.NAMESPACE);
            perQueue.setDimensions(DimensionSet.of("DeadLetterQueue", q.deadLetterQueue()));
            perQueue.putMetric("DeadLetterQueueDepth", q.depthBefore(), Unit.COUNT);
            perQueue.putMetric(
                    "OldestDeadLetterAgeSeconds", q.report().oldestArrivalAge().toSeconds(), Unit.SECONDS);
            perQueue.putMetric(
                    "Arrivals",
                    q.report().quarantinedTotal()
                            + q.report().replaysReturnedByClass().values().stream()
                                    .mapToInt(Integer::intValue)
                                    .sum(),
                    Unit.COUNT);
            perQueue.flush();
            q.byState().forEach((state, count) -> {
                MetricsLogger byState = new MetricsLogger(output);
                byState.setNamespace(ConsumerMetrics.NAMESPACE);
                byState.setDimensions(DimensionSet.of("DeadLetterQueue", q.deadLetterQueue(), "State", state));
                byState.putMetric("Quarantine", count, Unit.COUNT);
                byState.flush();
            });
        }
    }

    private MetricsLogger logger(FailureClass c) {
        MetricsLogger logger = new MetricsLogger(output);
        logger.setNamespace(ConsumerMetrics.NAMESPACE);
        if (c == null) {
            logger.setDimensions(new DimensionSet()); // "Dimensions": [[]] — metrics without dimensions
        } else {
            logger.setDimensions(DimensionSet.of("FailureClass", c.name()));
        }
        return logger;
    }
}
