package dev.redrive.cdk.monitoring.internal;

import dev.redrive.cdk.monitoring.AlarmThresholds;
import dev.redrive.cdk.monitoring.MonitoredQueue;
import dev.redrive.cdk.monitoring.Monitoring;
import dev.redrive.core.names.RedriveNames.Dimensions;
import dev.redrive.core.names.RedriveNames.Metrics;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.CreateAlarmOptions;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.lambda.IFunction;

/**
 * The platform's own alarms, added to a {@link Monitoring} through {@link Monitoring#addAlarm} as an app's are: per
 * queue by its kind, the sweeper's, and per circuit breaker; every threshold from {@link AlarmThresholds}.
 */
public final class PlatformAlarms {

    /** The period of a breaker's long-open alarm: the default cap of its open period. */
    public static final java.time.Duration BREAKER_ALARM_PERIOD = java.time.Duration.ofMinutes(10);

    private final Monitoring monitoring;
    private final String prefix;
    private final AlarmThresholds thresholds;

    /** Alarms added to {@code monitoring}, at its thresholds. */
    public PlatformAlarms(Monitoring monitoring) {
        this.monitoring = monitoring;
        this.prefix = monitoring.prefix();
        this.thresholds = monitoring.thresholds();
    }

    /**
     * The start of a queue's alarm names: its name, with the prefix in front when it does not start with it (the topic
     * admits only alarms named {@code <prefix>-*}).
     */
    private String alarmName(MonitoredQueue q, String alarm) {
        String base = q.name().startsWith(prefix + "-") ? q.name() : prefix + "-" + q.name();
        return base + "-" + alarm;
    }

    /** A queue's alarms, by its kind. */
    public void queueAlarms(MonitoredQueue q) {
        if (q.kind() == MonitoredQueue.Kind.FAILURE_RECORD) {
            // Nothing drains it: alarm on what arrives in a period (clears by itself), never on what sits there.
            alarm(
                    alarmName(q, "arrival"),
                    q.queue()
                            .metricNumberOfMessagesSent(MetricOptions.builder()
                                    .statistic("Sum")
                                    .period(period())
                                    .build()),
                    1,
                    ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                    1,
                    "A sweep did not run: the schedule could not invoke the sweeper, or the run failed or went "
                            + "stale. " + q.name() + " holds the details (read it; it is not drained and keeps them 14 "
                            + "days). The next scheduled run retries.");
            return;
        }
        MetricOptions maximum =
                MetricOptions.builder().statistic("Maximum").period(period()).build();
        Duration age = Duration.seconds(
                (q.deadLetter() ? thresholds.deadLetterOldestMessageAge() : thresholds.sourceOldestMessageAge())
                        .toSeconds());
        int depth = q.deadLetter() ? thresholds.deadLetterVisibleMessages() : thresholds.sourceVisibleMessages();
        alarm(
                alarmName(q, "oldest-message-age"),
                q.queue().metricApproximateAgeOfOldestMessage(maximum),
                age.toSeconds(),
                ComparisonOperator.GREATER_THAN_THRESHOLD,
                thresholds.evaluationPeriods(),
                "Oldest message of " + q.name() + " is older than " + age.toHumanString());
        alarm(
                alarmName(q, "depth"),
                q.queue().metricApproximateNumberOfMessagesVisible(maximum),
                depth,
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                thresholds.evaluationPeriods(),
                "At least " + depth + " messages wait in " + q.name());
        if (q.deadLetter()) {
            alarm(
                    alarmName(q, "arrival"),
                    q.queue().metricApproximateNumberOfMessagesVisible(maximum),
                    1,
                    ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                    1,
                    "A message arrived in the normally empty dead-letter queue " + q.name()
                            + ": the sweeper quarantines it; see the quarantine ledger");
        }
    }

    /** The sweeper's alarms: the oldest unresolved quarantine entry, the replay success rate, its errors. */
    public void sweeperAlarms(IFunction sweeper) {
        alarm(
                prefix + "-oldest-unresolved-quarantine",
                custom(Metrics.OLDEST_UNRESOLVED_QUARANTINE_AGE, "Maximum", period()),
                thresholds.oldestUnresolvedQuarantine().toSeconds(),
                ComparisonOperator.GREATER_THAN_THRESHOLD,
                1,
                "A quarantined dead letter has waited for a decision longer than "
                        + thresholds.oldestUnresolvedQuarantine());
        alarm(
                prefix + "-replay-success-rate",
                replaySuccessRate(),
                thresholds.replaySuccessRate(),
                ComparisonOperator.LESS_THAN_THRESHOLD,
                1,
                "Replays keep returning to the dead-letter queue: fewer than " + thresholds.replaySuccessRate()
                        + " of the replays of the last "
                        + thresholds.replaySuccessWindow().toMinutes()
                        + " min stayed out (or replays returned in a window that sent none)");
        alarm(
                prefix + "-sweeper-errors",
                sweeper.metricErrors(MetricOptions.builder()
                        .statistic("Sum")
                        .period(period())
                        .build()),
                1,
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                1,
                "The dead-letter sweeper failed: dead letters are not being quarantined");
    }

    /**
     * A circuit breaker that stays open: every refusal reports how long the breaker has been open since it first opened
     * ({@code BreakerOpenSeconds}, by Dependency), and refused messages come back at least once per open period (at
     * most 10 min by default), so the alarm evaluates the maximum over {@link #BREAKER_ALARM_PERIOD}: it clears once
     * no refusal is reported for a period, as after the breaker closed.
     */
    public void breakerAlarm(String dependency) {
        Duration period = Duration.seconds(Math.max(thresholds.period().toSeconds(), BREAKER_ALARM_PERIOD.toSeconds()));
        alarm(
                prefix + "-" + dependency + "-breaker-open",
                Metric.Builder.create()
                        .namespace(Metrics.NAMESPACE)
                        .metricName(Metrics.BREAKER_OPEN_SECONDS)
                        .dimensionsMap(Map.of(Dimensions.DEPENDENCY, dependency))
                        .statistic("Maximum")
                        .period(period)
                        .build(),
                thresholds.breakerOpen().toSeconds(),
                ComparisonOperator.GREATER_THAN_THRESHOLD,
                1,
                "The circuit breaker of " + dependency + " has been open for more than "
                        + thresholds.breakerOpen().toMinutes() + " min: its messages are deferred, not sent. Check "
                        + dependency + "; for a planned outage, `redrive window add` lets the sweeper replay what "
                        + "reaches the dead-letter queue");
    }

    /**
     * (sent - returned) / sent over the window, from the sweeper's per-run counts; 1 when nothing was sent or returned,
     * 0 when replays returned in a window that sent none (they were sent in the window before, or by a person).
     * Windowed, so the alarm clears once replays stay out again, and a late failure weighs as much as an early one.
     */
    private IMetric replaySuccessRate() {
        Duration window = Duration.seconds(thresholds.replaySuccessWindow().toSeconds());
        // In the order written: Map.of's order changes from one JVM to the next, and so would the template.
        Map<String, IMetric> inputs = new LinkedHashMap<>();
        inputs.put("sent", custom(Metrics.REPLAYED, "Sum", window));
        inputs.put("returned", custom(Metrics.REPLAYS_RETURNED, "Sum", window));
        return MathExpression.Builder.create()
                .expression("IF(sent > 0, (sent - returned) / sent, IF(returned > 0, 0, 1))")
                .usingMetrics(inputs)
                .period(window)
                .label("replay success rate")
                .build();
    }

    private static Metric custom(String name, String statistic, Duration period) {
        return Metric.Builder.create()
                .namespace(Metrics.NAMESPACE)
                .metricName(name)
                .statistic(statistic)
                .period(period)
                .build();
    }

    private void alarm(
            String name,
            IMetric metric,
            Number threshold,
            ComparisonOperator comparison,
            int evaluationPeriods,
            String description) {
        monitoring.addAlarm(
                name,
                metric,
                CreateAlarmOptions.builder()
                        .alarmDescription(description)
                        .threshold(threshold)
                        .comparisonOperator(comparison)
                        .evaluationPeriods(evaluationPeriods)
                        .build());
    }

    private Duration period() {
        return Duration.seconds(thresholds.period().toSeconds());
    }
}
