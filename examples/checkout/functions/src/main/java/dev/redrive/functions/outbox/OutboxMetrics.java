package dev.redrive.functions.outbox;

import dev.redrive.core.names.RedriveNames.Metrics;
import dev.redrive.lambda.EmfOutput;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * What the outbox relay and its sweep did, as EMF (namespace {@value Metrics#NAMESPACE}, no dimension): the relay's
 * {@code OutboxPublished}, {@code OutboxPublishFailures} and one {@code OutboxPublishLagMs} value per event (commit to
 * publication); the sweep's {@code OutboxRepublished}, {@code OutboxPublishFailures} and
 * {@code OldestUnpublishedOutboxAgeSeconds}, which the outbox alarm reads.
 */
public final class OutboxMetrics {

    private final EmfOutput output;

    public OutboxMetrics(EmfOutput output) {
        this.output = output;
    }

    /** A relay invocation: how many published, how many failed, each published event's lag. */
    public void relayed(int published, int failures, long[] lagsMs) {
        MetricsLogger m = logger();
        m.putMetric(Metrics.OUTBOX_PUBLISHED, published, Unit.COUNT);
        m.putMetric(Metrics.OUTBOX_PUBLISH_FAILURES, failures, Unit.COUNT);
        for (long lag : lagsMs) {
            m.putMetric(Metrics.OUTBOX_PUBLISH_LAG, lag, Unit.MILLISECONDS);
        }
        m.flush();
    }

    /** A sweep: how many republished, how many failed, the oldest unpublished event's age. */
    public void swept(int republished, int failures, long oldestUnpublishedSeconds) {
        MetricsLogger m = logger();
        m.putMetric(Metrics.OUTBOX_REPUBLISHED, republished, Unit.COUNT);
        m.putMetric(Metrics.OUTBOX_PUBLISH_FAILURES, failures, Unit.COUNT);
        m.putMetric(Metrics.OLDEST_UNPUBLISHED_OUTBOX_AGE, oldestUnpublishedSeconds, Unit.SECONDS);
        m.flush();
    }

    private MetricsLogger logger() {
        MetricsLogger logger = new MetricsLogger(output);
        logger.setNamespace(Metrics.NAMESPACE);
        logger.setDimensions(new DimensionSet());
        return logger;
    }
}
