package dev.redrive.infra.monitoring;

import dev.redrive.core.names.RedriveNames.Metrics;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.sns.Topic;
import software.constructs.Construct;

/**
 * Alarms and the dashboard. Every alarm notifies {@link #alarmTopic()}. Per source queue: age of the oldest message
 * and depth. Per dead-letter queue: age, depth, and any arrival at all (DLQs are normally empty). On the sweeper's
 * own metrics: the oldest unresolved quarantine entry and the replay success rate; and on the sweeper's errors.
 */
public final class Monitoring extends Construct {

    private final Topic alarmTopic;
    private final List<Alarm> alarms = new ArrayList<>();
    private final AlarmThresholds thresholds;
    private final String prefix;

    public Monitoring(Construct scope, String id, MonitoringProps props) {
        super(scope, id);
        this.thresholds = props.thresholds();
        this.prefix = props.prefix();
        IKey key = props.key();
        this.alarmTopic = Topic.Builder.create(this, "AlarmTopic")
                .displayName("Redrive alarms (" + prefix + ")")
                .masterKey(key)
                .enforceSsl(true)
                .build();
        // CloudWatch publishes to the encrypted topic with the customer-managed key.
        key.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("CloudWatchAlarmsPublishToEncryptedTopic")
                .principals(List.of(new ServicePrincipal("cloudwatch.amazonaws.com")))
                .actions(List.of("kms:Decrypt", "kms:GenerateDataKey*"))
                .resources(List.of("*"))
                .build());
        for (MonitoredQueue queue : props.queues()) {
            queueAlarms(queue);
        }
        sweeperAlarms(props.sweeper());
        new RedriveDashboard(this, "Dashboard", prefix, props.queues(), props.consumers(), alarms, thresholds.period());
    }

    private void queueAlarms(MonitoredQueue q) {
        MetricOptions maximum =
                MetricOptions.builder().statistic("Maximum").period(period()).build();
        Duration age = Duration.seconds(
                (q.deadLetter() ? thresholds.deadLetterOldestMessageAge() : thresholds.sourceOldestMessageAge())
                        .toSeconds());
        int depth = q.deadLetter() ? thresholds.deadLetterVisibleMessages() : thresholds.sourceVisibleMessages();
        alarm(
                q.name() + "-oldest-message-age",
                q.queue().metricApproximateAgeOfOldestMessage(maximum),
                age.toSeconds(),
                ComparisonOperator.GREATER_THAN_THRESHOLD,
                thresholds.evaluationPeriods(),
                "Oldest message of " + q.name() + " is older than " + age.toHumanString());
        alarm(
                q.name() + "-depth",
                q.queue().metricApproximateNumberOfMessagesVisible(maximum),
                depth,
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                thresholds.evaluationPeriods(),
                "At least " + depth + " messages wait in " + q.name());
        if (q.deadLetter()) {
            alarm(
                    q.name() + "-arrival",
                    q.queue().metricApproximateNumberOfMessagesVisible(maximum),
                    1,
                    ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                    1,
                    "A message arrived in the normally empty dead-letter queue " + q.name()
                            + ": the sweeper quarantines it; see the quarantine ledger");
        }
    }

    private void sweeperAlarms(IFunction sweeper) {
        alarm(
                prefix + "-oldest-unresolved-quarantine",
                custom(Metrics.OLDEST_UNRESOLVED_QUARANTINE_AGE, "Maximum"),
                thresholds.oldestUnresolvedQuarantine().toSeconds(),
                ComparisonOperator.GREATER_THAN_THRESHOLD,
                1,
                "A quarantined dead letter has waited for a decision longer than "
                        + thresholds.oldestUnresolvedQuarantine());
        alarm(
                prefix + "-replay-success-rate",
                custom(Metrics.REPLAY_SUCCESS_RATE, "Average"),
                thresholds.replaySuccessRate(),
                ComparisonOperator.LESS_THAN_THRESHOLD,
                1,
                "Replays keep returning to the dead-letter queue (success rate below " + thresholds.replaySuccessRate()
                        + ")");
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

    private Metric custom(String name, String statistic) {
        return Metric.Builder.create()
                .namespace(Metrics.NAMESPACE)
                .metricName(name)
                .statistic(statistic)
                .period(period())
                .build();
    }

    private void alarm(
            String name,
            IMetric metric,
            Number threshold,
            ComparisonOperator comparison,
            int evaluationPeriods,
            String description) {
        Alarm alarm = Alarm.Builder.create(this, name)
                .alarmName(name)
                .alarmDescription(description)
                .metric(metric)
                .threshold(threshold)
                .comparisonOperator(comparison)
                .evaluationPeriods(evaluationPeriods)
                .datapointsToAlarm(evaluationPeriods)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build();
        alarm.addAlarmAction(new SnsAction(alarmTopic));
        alarm.addOkAction(new SnsAction(alarmTopic));
        alarms.add(alarm);
    }

    private Duration period() {
        return Duration.seconds(thresholds.period().toSeconds());
    }

    /** The topic every alarm notifies; subscribe people or a pager to it. */
    public Topic alarmTopic() {
        return alarmTopic;
    }

    /** Every alarm made here. */
    public List<Alarm> alarms() {
        return List.copyOf(alarms);
    }
}
