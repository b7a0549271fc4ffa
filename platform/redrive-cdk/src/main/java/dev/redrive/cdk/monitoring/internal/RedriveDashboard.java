package dev.redrive.cdk.monitoring.internal;

import dev.redrive.cdk.monitoring.MonitoredQueue;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.names.RedriveNames.Dimensions;
import dev.redrive.core.names.RedriveNames.Metrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.LogQueryVisualizationType;
import software.amazon.awscdk.services.cloudwatch.LogQueryWidget;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.constructs.Construct;

/**
 * The Redrive dashboard: depth and age per queue, dead-letter arrivals by consumer and failure class, quarantine by
 * failure class, replay outcomes, each consumer's processed and duplicate counts, and each circuit breaker's refusals,
 * probes, how long it has been open, its transitions by the state entered and its history: the transitions the
 * sandboxes wrote, newest first, with why (a Logs Insights table of their log lines, {@link BreakerTransition#logLine};
 * {@code redrive stats} shows the history as stored, holds by maintenance windows included). Metrics whose dimension
 * values are open-ended (failure classes, states) are charted with CloudWatch SEARCH expressions.
 */
public final class RedriveDashboard extends Construct {

    private final Duration period;
    private final Dashboard dashboard;

    /**
     * The dashboard {@code <prefix>-redrive} of these queues, consumers, breakers (their history from these log
     * groups) and alarms ({@code alarms} is read at synthesis: alarms added later are listed too), over this period.
     */
    public RedriveDashboard(
            Construct scope,
            String id,
            String prefix,
            List<MonitoredQueue> queues,
            List<String> consumers,
            List<String> breakers,
            List<String> consumerLogGroups,
            List<Alarm> alarms,
            java.time.Duration period) {
        super(scope, id);
        this.period = Duration.seconds(period.toSeconds());
        List<IMetric> depth = new ArrayList<>();
        List<IMetric> age = new ArrayList<>();
        for (MonitoredQueue q : queues) {
            depth.add(q.queue().metricApproximateNumberOfMessagesVisible(maximum(q.name())));
            age.add(q.queue().metricApproximateAgeOfOldestMessage(maximum(q.name())));
        }
        List<IMetric> processed = new ArrayList<>();
        for (String consumer : consumers) {
            processed.add(consumerMetric(Metrics.PROCESSED, consumer));
            processed.add(consumerMetric(Metrics.DUPLICATES, consumer));
        }
        List<IMetric> refused = new ArrayList<>();
        List<IMetric> openFor = new ArrayList<>();
        for (String dependency : breakers) {
            refused.add(dependencyMetric(Metrics.BREAKER_CALLS_REFUSED, dependency, "Sum"));
            refused.add(dependencyMetric(Metrics.BREAKER_PROBES_FAILED, dependency, "Sum"));
            refused.add(dependencyMetric(Metrics.BREAKER_PROBES_SUCCEEDED, dependency, "Sum"));
            openFor.add(dependencyMetric(Metrics.BREAKER_OPEN_SECONDS, dependency, "Maximum"));
        }
        List<IMetric> outcomes = new ArrayList<>();
        for (String outcome :
                List.of(Metrics.REPLAYED, Metrics.REPLAY_FAILED, Metrics.ALREADY_APPLIED, Metrics.ARCHIVED)) {
            outcomes.add(search("Namespace=\"" + Metrics.NAMESPACE + "\" MetricName=\"" + outcome + "\"", outcome));
        }
        IMetric deadLettered = search(
                "{" + Metrics.NAMESPACE + "," + Dimensions.CONSUMER + "," + Dimensions.FAILURE_CLASS + "} MetricName=\""
                        + Metrics.DEAD_LETTERED + "\"",
                "");
        IMetric quarantined = search(
                "{" + Metrics.NAMESPACE + "," + Dimensions.FAILURE_CLASS + "} MetricName=\"" + Metrics.QUARANTINED
                        + "\"",
                "");
        IMetric transitions = search(
                "{" + Metrics.NAMESPACE + "," + Dimensions.DEPENDENCY + "," + Dimensions.STATE + "} MetricName=\""
                        + Metrics.BREAKER_TRANSITIONS + "\"",
                "");
        List<List<IWidget>> rows = List.of(
                List.of(new AlarmStatusRow("Alarms", alarms)),
                List.of(graph("Queue depth (visible messages)", depth), graph("Age of oldest message (s)", age)),
                List.of(
                        graph("Dead-lettered by consumer and failure class", List.of(deadLettered)),
                        graph("Quarantined by failure class", List.of(quarantined))),
                List.of(graph("Replay outcomes", outcomes), graph("Consumers: processed and duplicates", processed)),
                List.of(
                        graph("Circuit breakers: calls refused, probes", refused),
                        graph("Circuit breakers: open for (s)", openFor)),
                List.of(
                        graph("Circuit breakers: transitions by state entered", List.of(transitions)),
                        breakerHistory(consumerLogGroups)));
        this.dashboard = Dashboard.Builder.create(this, "Resource")
                .dashboardName(prefix + "-redrive")
                .widgets(rows)
                .build();
    }

    /** The CloudWatch dashboard. */
    public Dashboard dashboard() {
        return dashboard;
    }

    private MetricOptions maximum(String label) {
        return MetricOptions.builder()
                .statistic("Maximum")
                .period(period)
                .label(label)
                .build();
    }

    private Metric consumerMetric(String name, String consumer) {
        return Metric.Builder.create()
                .namespace(Metrics.NAMESPACE)
                .metricName(name)
                .dimensionsMap(Map.of(Dimensions.CONSUMER, consumer))
                .statistic("Sum")
                .period(period)
                .label(consumer + " " + name)
                .build();
    }

    private Metric dependencyMetric(String name, String dependency, String statistic) {
        return Metric.Builder.create()
                .namespace(Metrics.NAMESPACE)
                .metricName(name)
                .dimensionsMap(Map.of(Dimensions.DEPENDENCY, dependency))
                .statistic(statistic)
                .period(period)
                .label(dependency + " " + name)
                .build();
    }

    private MathExpression search(String query, String label) {
        return MathExpression.Builder.create()
                .expression("SEARCH('" + query + "', 'Sum', " + period.toSeconds() + ")")
                .usingMetrics(Map.of())
                .label(label)
                .period(period)
                .build();
    }

    /** The history of the breakers as the consumers logged their transitions: newest first, with why. */
    private static IWidget breakerHistory(List<String> consumerLogGroups) {
        return LogQueryWidget.Builder.create()
                .title("Circuit breakers: history (transitions the sandboxes wrote, newest first)")
                .logGroupNames(consumerLogGroups)
                .queryLines(breakerHistoryQuery())
                .view(LogQueryVisualizationType.TABLE)
                .width(12)
                .height(6)
                .build();
    }

    /** The Logs Insights query of the breaker history widget. */
    public static List<String> breakerHistoryQuery() {
        return List.of(
                "fields @timestamp, @message",
                "filter @message like \"" + BreakerTransition.LOG_MARKER + "\"",
                "parse @message \"" + BreakerTransition.LOG_MARKER
                        + "*: * -> * (token *): *\" as dependency, fromState, toState, token, why",
                "display @timestamp, dependency, fromState, toState, token, why",
                "sort @timestamp desc",
                "limit 100");
    }

    private static IWidget graph(String title, List<IMetric> metrics) {
        return GraphWidget.Builder.create()
                .title(title)
                .left(metrics)
                .width(12)
                .height(6)
                .build();
    }
}
