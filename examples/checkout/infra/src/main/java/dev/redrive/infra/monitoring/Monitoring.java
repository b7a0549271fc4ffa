package dev.redrive.infra.monitoring;

import dev.redrive.core.names.RedriveNames.Dimensions;
import dev.redrive.core.names.RedriveNames.Metrics;
import dev.redrive.infra.OrderedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
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
 * and depth. Per dead-letter queue: age, depth, and any arrival at all (DLQs are normally empty, the sweeper drains
 * them). On the sweeper schedule's DLQ, which nothing drains: arrivals in a period. On the sweeper's own metrics: the
 * oldest unresolved quarantine entry and the replay success rate; and on the sweeper's errors. Per circuit breaker:
 * open for longer than {@link AlarmThresholds#breakerOpen()}.
 */
public final class Monitoring extends Construct {

    private static final String CLOUDWATCH = "cloudwatch.amazonaws.com";
    /** The period of a breaker's long-open alarm: the default cap of its open period. */
    static final java.time.Duration BREAKER_ALARM_PERIOD = java.time.Duration.ofMinutes(10);

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
        // enforceSsl writes a topic policy, which replaces SNS's default one: CloudWatch needs its own Allow, and the
        // key must let it encrypt for the topic. Both only for this account's alarms named <prefix>-*.
        Map<String, Object> thisStacksAlarms = alarmSourceConditions();
        alarmTopic.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("CloudWatchAlarmsOfThisStackPublish")
                .principals(List.of(new ServicePrincipal(CLOUDWATCH)))
                .actions(List.of("sns:Publish"))
                .resources(List.of(alarmTopic.getTopicArn()))
                .conditions(thisStacksAlarms)
                .build());
        key.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("CloudWatchAlarmsPublishToEncryptedTopic")
                .principals(List.of(new ServicePrincipal(CLOUDWATCH)))
                .actions(List.of("kms:Decrypt", "kms:GenerateDataKey*"))
                .resources(List.of("*"))
                .conditions(thisStacksAlarms)
                .build());
        for (MonitoredQueue queue : props.queues()) {
            queueAlarms(queue);
        }
        sweeperAlarms(props.sweeper());
        props.breakers().forEach(this::breakerAlarm);
        props.producer().ifPresent(this::producerAlarms);
        new RedriveDashboard(
                this,
                "Dashboard",
                prefix,
                props.queues(),
                props.consumers(),
                props.breakers(),
                props.consumerLogGroups(),
                props.producer(),
                alarms,
                thresholds.period());
    }

    /**
     * Confused-deputy guard: the caller is CloudWatch acting for an alarm of this account and region whose name starts
     * with the prefix (every alarm made here is named {@code <prefix>-...}).
     */
    private Map<String, Object> alarmSourceConditions() {
        Stack stack = Stack.of(this);
        String alarms = stack.formatArn(ArnComponents.builder()
                .service("cloudwatch")
                .resource("alarm")
                .resourceName(prefix + "-*")
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME)
                .build());
        return Map.of(
                "StringEquals", Map.of("aws:SourceAccount", stack.getAccount()),
                "ArnLike", Map.of("aws:SourceArn", alarms));
    }

    private void queueAlarms(MonitoredQueue q) {
        if (q.kind() == MonitoredQueue.Kind.FAILURE_RECORD) {
            // Nothing drains it: alarm on what arrives in a period (clears by itself), never on what sits there.
            alarm(
                    q.name() + "-arrival",
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
     * The producer side: an outbox event unpublished for longer than {@link AlarmThresholds#oldestUnpublishedOutbox()}
     * (the relay and its sweep both failed it); the relay falling behind its stream ({@code IteratorAge} over
     * {@link AlarmThresholds#relayIteratorAge()}); the payment provider not answering checkouts; the reconciliation
     * unable to end abandoned checkouts (their voids unconfirmed) for {@link AlarmThresholds#evaluationPeriods()}
     * periods.
     */
    private void producerAlarms(MonitoringProps.Producer producer) {
        alarm(
                prefix + "-outbox-oldest-unpublished",
                custom(Metrics.OLDEST_UNPUBLISHED_OUTBOX_AGE, "Maximum"),
                thresholds.oldestUnpublishedOutbox().toSeconds(),
                ComparisonOperator.GREATER_THAN_THRESHOLD,
                1,
                "An OrderPlaced event has waited in the outbox for more than "
                        + thresholds.oldestUnpublishedOutbox().toMinutes() + " min: the relay and the outbox sweep "
                        + "could not publish it. Its consumers have not seen the order yet; see the relay's log and "
                        + "its failure queue");
        alarm(
                prefix + "-outbox-relay-iterator-age",
                producer.relay()
                        .metric(
                                "IteratorAge",
                                MetricOptions.builder()
                                        .statistic("Maximum")
                                        .period(period())
                                        .build()),
                thresholds.relayIteratorAge().toMillis(),
                ComparisonOperator.GREATER_THAN_THRESHOLD,
                1,
                "The outbox relay is behind the orders table's stream by more than "
                        + thresholds.relayIteratorAge().toMinutes() + " min: orders are reaching their consumers late");
        alarm(
                prefix + "-payment-provider-unavailable",
                custom(Metrics.PAYMENT_PROVIDER_UNAVAILABLE, "Sum"),
                thresholds.paymentProviderUnavailable(),
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                1,
                "Checkouts are answered 503 because the payment provider does not answer: clients retry with their "
                        + "keys; abandoned ones are voided by the reconciliation");
        alarm(
                prefix + "-checkout-attempts-not-ended",
                custom(Metrics.CHECKOUT_ATTEMPTS_NOT_ENDED, "Sum"),
                1,
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                thresholds.evaluationPeriods(),
                "The checkout reconciliation could not end abandoned checkouts for "
                        + thresholds.evaluationPeriods() + " periods in a row: the payment provider does not confirm "
                        + "their voids, so their authorizations may stand and their stock stays held. No client can "
                        + "place them (they answer 410); each run retries them first. See the reconciliation's log for "
                        + "the provider's answer");
    }

    /**
     * A circuit breaker that stays open: every refusal reports how long the breaker has been open since it first opened
     * ({@code BreakerOpenSeconds}, by Dependency), and refused messages come back at least once per open period (at
     * most 10 min by default), so the alarm evaluates the maximum over {@link #BREAKER_ALARM_PERIOD}: it clears once
     * no refusal is reported for a period, as after the breaker closed.
     */
    private void breakerAlarm(String dependency) {
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
        return MathExpression.Builder.create()
                .expression("IF(sent > 0, (sent - returned) / sent, IF(returned > 0, 0, 1))")
                .usingMetrics(OrderedMap.<String, IMetric>of(
                        "sent", custom(Metrics.REPLAYED, "Sum", window),
                        "returned", custom(Metrics.REPLAYS_RETURNED, "Sum", window)))
                .period(window)
                .label("replay success rate")
                .build();
    }

    private Metric custom(String name, String statistic, Duration period) {
        return Metric.Builder.create()
                .namespace(Metrics.NAMESPACE)
                .metricName(name)
                .statistic(statistic)
                .period(period)
                .build();
    }

    private Metric custom(String name, String statistic) {
        return custom(name, statistic, period());
    }

    private void alarm(
            String name,
            IMetric metric,
            Number threshold,
            ComparisonOperator comparison,
            int evaluationPeriods,
            String description) {
        if (!name.startsWith(prefix + "-")) {
            throw new IllegalArgumentException(
                    "alarm " + name + " must start with " + prefix + "- : the alarm topic admits only alarms named so");
        }
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
