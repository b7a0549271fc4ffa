package dev.redrive.cdk.monitoring;

import dev.redrive.cdk.monitoring.internal.RedriveDashboard;
import dev.redrive.core.names.RedriveNames.Dimensions;
import dev.redrive.core.names.RedriveNames.Metrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.CreateAlarmOptions;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
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
 * Redrive's alarms and dashboard. Every alarm is named {@code <prefix>-...} (a queue's alarms {@code <queue
 * name>-<alarm>}, with {@code <prefix>-} in front when the queue's name does not start with it), and every alarm notifies {@link #alarmTopic()}, an SNS topic encrypted with the given key
 * that only this account's alarms named {@code <prefix>-*} may publish to. Per source queue: age of the oldest message
 * and depth. Per dead-letter queue: age, depth, and any arrival at all (DLQs are normally empty, the sweeper drains
 * them). Per failure record (a schedule's DLQ, which nothing drains): arrivals in a period. On the sweeper's own
 * metrics: the oldest unresolved quarantine entry and the replay success rate; and on the sweeper's errors. Per circuit
 * breaker: open for longer than {@link AlarmThresholds#breakerOpen()}. The dashboard ({@code <prefix>-redrive}) shows
 * every alarm's state, the queues, dead letters, quarantine, replays, the consumers and the breakers with their
 * history.
 *
 * <p>An app adds its own alarms with {@link #addAlarm(String, IMetric, CreateAlarmOptions)} (the same topic, and the
 * dashboard's alarm row) and its own dashboard rows with {@link #addDashboardRow(IWidget...)}:
 *
 * <pre>{@code
 * Monitoring monitoring = new Monitoring(this, "Monitoring", MonitoringProps.builder("shop", key, sweeper)
 *         .consumers(List.of(receipts, revenue))
 *         .breaker("mail-provider")
 *         .build());
 * monitoring.addAlarm("shop-orders-rejected", ordersRejected, CreateAlarmOptions.builder()
 *         .threshold(1)
 *         .evaluationPeriods(1)
 *         .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
 *         .alarmDescription("Orders are being rejected: see the shop's log")
 *         .build());
 * monitoring.addDashboardRow(GraphWidget.Builder.create().title("Orders").left(List.of(ordersPlaced)).build());
 * }</pre>
 */
public final class Monitoring extends Construct {

    /** The period of a breaker's long-open alarm: the default cap of its open period. */
    public static final java.time.Duration BREAKER_ALARM_PERIOD = java.time.Duration.ofMinutes(10);

    private static final String CLOUDWATCH = "cloudwatch.amazonaws.com";

    private final Topic alarmTopic;
    private final List<Alarm> alarms = new ArrayList<>();
    private final AlarmThresholds thresholds;
    private final String prefix;
    private final RedriveDashboard dashboard;

    /** Makes the topic, the alarms of everything {@code props} names, and the dashboard. */
    public Monitoring(Construct scope, String id, MonitoringProps props) {
        super(scope, id);
        Objects.requireNonNull(props, "props");
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
        this.dashboard = new RedriveDashboard(
                this,
                "Dashboard",
                prefix,
                props.queues(),
                props.consumers(),
                props.breakers(),
                props.consumerLogGroups(),
                alarms,
                thresholds.period());
    }

    /**
     * Confused-deputy guard: the caller is CloudWatch acting for an alarm of this account and region whose name starts
     * with the prefix (every alarm made here is named {@code <prefix>-...}).
     */
    private Map<String, Object> alarmSourceConditions() {
        Stack stack = Stack.of(this);
        String alarmArns = stack.formatArn(ArnComponents.builder()
                .service("cloudwatch")
                .resource("alarm")
                .resourceName(prefix + "-*")
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME)
                .build());
        return Map.of(
                "StringEquals", Map.of("aws:SourceAccount", stack.getAccount()),
                "ArnLike", Map.of("aws:SourceArn", alarmArns));
    }

    /**
     * The start of a queue's alarm names: its name, with the prefix in front when it does not start with it (the topic
     * admits only alarms named {@code <prefix>-*}).
     */
    private String alarmName(MonitoredQueue q, String alarm) {
        String base = q.name().startsWith(prefix + "-") ? q.name() : prefix + "-" + q.name();
        return base + "-" + alarm;
    }

    private void queueAlarms(MonitoredQueue q) {
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

    private void sweeperAlarms(IFunction sweeper) {
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
        addAlarm(
                name,
                metric,
                CreateAlarmOptions.builder()
                        .alarmDescription(description)
                        .threshold(threshold)
                        .comparisonOperator(comparison)
                        .evaluationPeriods(evaluationPeriods)
                        .build());
    }

    /**
     * Adds an alarm of the app on {@code metric}, named {@code name} (its construct id and its CloudWatch name), made
     * in this construct: it notifies {@link #alarmTopic()} when it fires and when it clears, and is listed in the
     * dashboard's alarm row. {@code options} as {@code IMetric.createAlarm} takes them; by default
     * {@code datapointsToAlarm} is {@code evaluationPeriods} and missing data is not breaching.
     *
     * @throws IllegalArgumentException when {@code name} does not start with {@code <prefix>-} (the topic admits only
     *                                  alarms named so), or {@code options} name the alarm otherwise
     */
    public Alarm addAlarm(String name, IMetric metric, CreateAlarmOptions options) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(options, "options");
        if (!name.startsWith(prefix + "-")) {
            throw new IllegalArgumentException(
                    "alarm " + name + " must start with " + prefix + "- : the alarm topic admits only alarms named so");
        }
        if (options.getAlarmName() != null && !options.getAlarmName().equals(name)) {
            throw new IllegalArgumentException("alarm " + name + " is named " + options.getAlarmName()
                    + " by its options: leave alarmName out, the name given is its name");
        }
        Alarm alarm = Alarm.Builder.create(this, name)
                .alarmName(name)
                .alarmDescription(options.getAlarmDescription())
                .metric(metric)
                .threshold(options.getThreshold())
                .comparisonOperator(options.getComparisonOperator())
                .evaluationPeriods(options.getEvaluationPeriods())
                .datapointsToAlarm(
                        options.getDatapointsToAlarm() != null
                                ? options.getDatapointsToAlarm()
                                : options.getEvaluationPeriods())
                .treatMissingData(
                        options.getTreatMissingData() != null
                                ? options.getTreatMissingData()
                                : TreatMissingData.NOT_BREACHING)
                .actionsEnabled(options.getActionsEnabled())
                .evaluateLowSampleCountPercentile(options.getEvaluateLowSampleCountPercentile())
                .build();
        alarm.addAlarmAction(new SnsAction(alarmTopic));
        alarm.addOkAction(new SnsAction(alarmTopic));
        alarms.add(alarm);
        return alarm;
    }

    /**
     * Adds a row of the app's widgets under the dashboard's rows, laid out left to right (CloudWatch's grid is 24
     * wide).
     */
    public void addDashboardRow(IWidget... widgets) {
        dashboard.dashboard().addWidgets(widgets);
    }

    private Duration period() {
        return Duration.seconds(thresholds.period().toSeconds());
    }

    /** The topic every alarm notifies; subscribe people or a pager to it. */
    public Topic alarmTopic() {
        return alarmTopic;
    }

    /** Every alarm made here, the app's added ones included, in the order made. */
    public List<Alarm> alarms() {
        return List.copyOf(alarms);
    }

    /** The dashboard, {@code <prefix>-redrive}. */
    public Dashboard dashboard() {
        return dashboard.dashboard();
    }

    /** Where the alarms fire. */
    public AlarmThresholds thresholds() {
        return thresholds;
    }

    /** The prefix every alarm's name starts with ({@code <prefix>-}). */
    public String prefix() {
        return prefix;
    }
}
