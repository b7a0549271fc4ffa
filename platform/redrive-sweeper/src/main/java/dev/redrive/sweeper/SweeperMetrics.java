package dev.redrive.sweeper;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.names.RedriveNames.Dimensions;
import dev.redrive.core.names.RedriveNames.Metrics;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.lambda.EmfOutput;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * The sweeper's metrics, as Embedded Metric Format, namespace {@value Metrics#NAMESPACE}: without dimensions
 * {@code OldestUnresolvedQuarantineAgeSeconds}, {@code Replayed} and {@code ReplaysReturned} (this run's replays sent
 * and replays that came back: the replay success rate alarm sums them over a window), {@code ReplaySuccessRate}
 * (all-time, for the dashboard), {@code AlreadyApplied}, {@code ReplayRefused}, {@code ReplayDeferred},
 * {@code Archived}; by
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
        int held = 0;
        int paced = 0;
        int archived = 0;
        int replaysReturned = 0;
        for (SweepReport r : reports) {
            oldest = Math.max(
                    oldest, r.oldestUnresolvedAge().map(Duration::toSeconds).orElse(0L));
            replayed += r.replayOutcomes().getOrDefault("Sent", 0);
            alreadyApplied += r.replayOutcomes().getOrDefault("AlreadyApplied", 0);
            refused += r.replayOutcomes().getOrDefault("Refused", 0);
            deferred += r.replayOutcomes().getOrDefault("Deferred", 0);
            held += r.replayOutcomes().getOrDefault("Held", 0);
            paced += r.pacedCount();
            archived += r.archivedToStoreCount();
            replaysReturned += sum(r.replaysReturnedByClass());
        }
        overall.putMetric(Metrics.OLDEST_UNRESOLVED_QUARANTINE_AGE, oldest, Unit.SECONDS);
        overall.putMetric(Metrics.REPLAYED, replayed, Unit.COUNT);
        overall.putMetric(Metrics.ALREADY_APPLIED, alreadyApplied, Unit.COUNT);
        overall.putMetric(Metrics.REPLAY_REFUSED, refused, Unit.COUNT);
        overall.putMetric(Metrics.REPLAY_DEFERRED, deferred, Unit.COUNT);
        overall.putMetric(Metrics.REPLAY_HELD, held, Unit.COUNT);
        overall.putMetric(Metrics.REPLAY_PACED, paced, Unit.COUNT);
        overall.putMetric(Metrics.ARCHIVED, archived, Unit.COUNT);
        // This run's replays that came back; with Replayed (this run's sent) summed over a window by the alarm:
        // all-time totals would let early failures hold it.
        overall.putMetric(Metrics.REPLAYS_RETURNED, replaysReturned, Unit.COUNT);
        long sent = totals.values().stream().mapToLong(ReplayStats.Totals::sent).sum();
        long returned =
                totals.values().stream().mapToLong(ReplayStats.Totals::returned).sum();
        overall.putMetric(Metrics.REPLAY_SUCCESS_RATE, new ReplayStats.Totals(sent, returned).successRate(), Unit.NONE);
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
            byClass.putMetric(Metrics.QUARANTINED, quarantined, Unit.COUNT);
            byClass.putMetric(Metrics.REPLAY_FAILED, failed, Unit.COUNT);
            if (t != null) {
                byClass.putMetric(Metrics.REPLAY_SUCCESS_RATE, t.successRate(), Unit.NONE);
            }
            byClass.flush();
        }
    }

    private static int sum(Map<FailureClass, Integer> counts) {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The per-queue figures of one sweep. */
    public record QueueFigures(
            String deadLetterQueue, long depthBefore, SweepReport report, Map<String, Long> byState) {}

    public void exportQueues(List<QueueFigures> queues) {
        for (QueueFigures q : queues) {
            MetricsLogger perQueue = new MetricsLogger(output);
            perQueue.setNamespace(Metrics.NAMESPACE);
            perQueue.setDimensions(DimensionSet.of(Dimensions.DEAD_LETTER_QUEUE, q.deadLetterQueue()));
            perQueue.putMetric(Metrics.DEAD_LETTER_QUEUE_DEPTH, q.depthBefore(), Unit.COUNT);
            perQueue.putMetric(
                    Metrics.OLDEST_DEAD_LETTER_AGE,
                    q.report().oldestArrivalAge().toSeconds(),
                    Unit.SECONDS);
            perQueue.putMetric(
                    Metrics.ARRIVALS,
                    q.report().quarantinedTotal()
                            + q.report().replaysReturnedByClass().values().stream()
                                    .mapToInt(Integer::intValue)
                                    .sum(),
                    Unit.COUNT);
            perQueue.flush();
            q.byState().forEach((state, count) -> {
                MetricsLogger byState = new MetricsLogger(output);
                byState.setNamespace(Metrics.NAMESPACE);
                byState.setDimensions(
                        DimensionSet.of(Dimensions.DEAD_LETTER_QUEUE, q.deadLetterQueue(), Dimensions.STATE, state));
                byState.putMetric(Metrics.QUARANTINE, count, Unit.COUNT);
                byState.flush();
            });
        }
    }

    private MetricsLogger logger(FailureClass c) {
        MetricsLogger logger = new MetricsLogger(output);
        logger.setNamespace(Metrics.NAMESPACE);
        if (c == null) {
            logger.setDimensions(new DimensionSet()); // "Dimensions": [[]] — metrics without dimensions
        } else {
            logger.setDimensions(DimensionSet.of(Dimensions.FAILURE_CLASS, c.name()));
        }
        return logger;
    }
}
