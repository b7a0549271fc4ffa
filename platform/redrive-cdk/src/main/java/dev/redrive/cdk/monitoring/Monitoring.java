package dev.redrive.cdk.monitoring;

import dev.redrive.cdk.monitoring.internal.PlatformAlarms;
import dev.redrive.cdk.monitoring.internal.RedriveDashboard;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.AnomalyDetectionAlarm;
import software.amazon.awscdk.services.cloudwatch.CfnAnomalyDetector;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.CreateAlarmOptions;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sns.SubscriptionProtocol;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.amazon.awscdk.services.sns.subscriptions.UrlSubscription;
import software.constructs.Construct;

/**
 * Redrive's alarms and dashboard. Every alarm is named {@code <prefix>-...} (a queue's alarms {@code <queue
 * name>-<alarm>}, with {@code <prefix>-} in front when the queue's name does not start with it), its description says
 * what it means and ends in a link to its section of the runbook ({@code Runbook: <runbook>#<section>}), and every
 * alarm notifies {@link #alarmTopic()} when it fires and when it clears: an SNS topic encrypted with the given key that
 * only this account's alarms named {@code <prefix>-*} may publish to (or an existing topic, {@link
 * AlarmNotifications}), with the given email and HTTPS subscribers. Per source queue: age of the oldest message and
 * depth. Per dead-letter queue: age, depth, and arrivals above their learned baseline (a CloudWatch anomaly detection
 * model of the sweeper's {@code Arrivals}: a steady dead-letter rate becomes normal and the alarm returns to OK, a new
 * jump fires it again). Per failure record (a schedule's DLQ, which nothing drains): arrivals in a period. On the
 * sweeper's own metrics: the oldest unresolved quarantine entry, the replay success rate, and its heartbeat (no run
 * reported for {@link AlarmThresholds#sweeperHeartbeat()}: missing data breaches). Per function (the consumers', the
 * sweeper, the app's): errors and throttles. Per table and global secondary index: throttle events. The account's
 * claimed Lambda concurrency. Per circuit breaker: open for longer than {@link AlarmThresholds#breakerOpen()}. The
 * dashboard ({@code <prefix>-redrive}) shows every alarm's state, the queues, dead letters, quarantine, replays, the
 * consumers and the breakers with their history.
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
 *         .alarmDescription("Orders are being rejected: see the shop's log. Runbook: " + runbook + "#orders-rejected")
 *         .build());
 * monitoring.addDashboardRow(GraphWidget.Builder.create().title("Orders").left(List.of(ordersPlaced)).build());
 * }</pre>
 */
public final class Monitoring extends Construct {

    private static final String CLOUDWATCH = "cloudwatch.amazonaws.com";

    /** CloudFormation's limit on an alarm's description. */
    public static final int MAX_DESCRIPTION = 1024;

    private final ITopic alarmTopic;
    private final List<Alarm> alarms = new ArrayList<>();
    private final AlarmThresholds thresholds;
    private final String prefix;
    private final RedriveDashboard dashboard;
    private final String runbook;

    /** Makes the topic, the alarms of everything {@code props} names, and the dashboard. */
    public Monitoring(Construct scope, String id, MonitoringProps props) {
        super(scope, id);
        Objects.requireNonNull(props, "props");
        this.thresholds = props.thresholds();
        this.prefix = props.prefix();
        this.runbook = props.runbook();
        IKey key = props.key();
        AlarmNotifications notifications = props.notifications();
        this.alarmTopic = notifications.existingTopic().orElseGet(() -> ownTopic(key));
        for (String email : notifications.emailAddresses()) {
            alarmTopic.addSubscription(new EmailSubscription(email));
        }
        for (String url : notifications.httpsEndpoints()) {
            alarmTopic.addSubscription(UrlSubscription.Builder.create(url)
                    .protocol(SubscriptionProtocol.HTTPS)
                    .build());
        }
        // Through addAlarm, as an app's: named <prefix>-..., notifying the topic, listed in the dashboard.
        PlatformAlarms platform = new PlatformAlarms(this);
        props.queues().forEach(platform::queueAlarms);
        platform.sweeperAlarms(props.sweeper());
        props.functions().forEach(platform::functionAlarms);
        props.tables().forEach(platform::tableAlarms);
        platform.accountConcurrencyAlarm();
        props.breakers().forEach(platform::breakerAlarm);
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
     * A topic of its own, encrypted with {@code key}. enforceSsl writes a topic policy, which replaces SNS's default
     * one: CloudWatch needs its own Allow, and the key must let it encrypt for the topic. Both only for this account's
     * alarms named {@code <prefix>-*}.
     */
    private Topic ownTopic(IKey key) {
        Topic topic = Topic.Builder.create(this, "AlarmTopic")
                .displayName("Redrive alarms (" + prefix + ")")
                .masterKey(key)
                .enforceSsl(true)
                .build();
        Map<String, Object> thisStacksAlarms = alarmSourceConditions();
        topic.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("CloudWatchAlarmsOfThisStackPublish")
                .principals(List.of(new ServicePrincipal(CLOUDWATCH)))
                .actions(List.of("sns:Publish"))
                .resources(List.of(topic.getTopicArn()))
                .conditions(thisStacksAlarms)
                .build());
        key.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("CloudWatchAlarmsPublishToEncryptedTopic")
                .principals(List.of(new ServicePrincipal(CLOUDWATCH)))
                .actions(List.of("kms:Decrypt", "kms:GenerateDataKey*"))
                .resources(List.of("*"))
                .conditions(thisStacksAlarms)
                .build());
        return topic;
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
     * Adds an alarm of the app on {@code metric}, named {@code name} (its construct id and its CloudWatch name), made
     * in this construct: it notifies {@link #alarmTopic()} when it fires and when it clears, and is listed in the
     * dashboard's alarm row. {@code options} as {@code IMetric.createAlarm} takes them; by default
     * {@code datapointsToAlarm} is {@code evaluationPeriods} and missing data is not breaching.
     *
     * @throws IllegalArgumentException when {@code name} does not start with {@code <prefix>-} (the topic admits only
     *                                  alarms named so), {@code options} name the alarm otherwise, or its description
     *                                  is longer than CloudFormation takes ({@value #MAX_DESCRIPTION} characters)
     */
    public Alarm addAlarm(String name, IMetric metric, CreateAlarmOptions options) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(options, "options");
        requireName(name);
        if (options.getAlarmName() != null && !options.getAlarmName().equals(name)) {
            throw new IllegalArgumentException("alarm " + name + " is named " + options.getAlarmName()
                    + " by its options: leave alarmName out, the name given is its name");
        }
        requireDescription(name, options.getAlarmDescription());
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
        return notifying(alarm);
    }

    /**
     * Adds an alarm of the app on {@code metric} above its learned baseline: an {@code AWS::CloudWatch::AnomalyDetector}
     * models the metric (its namespace, name, dimensions and statistic), and the alarm fires when the metric is above
     * the model's band {@code standardDeviations} wide ({@code GreaterThanUpperThreshold} on {@code
     * ANOMALY_DETECTION_BAND}) in {@code evaluationPeriods} periods in a row, and clears when it is back in the band: a
     * steady level, however high, becomes normal. Named, notifying and listed as {@link #addAlarm}'s.
     *
     * @param metric a single metric with a statistic and a period (not metric math)
     */
    public Alarm addAboveBaselineAlarm(
            String name,
            Metric metric,
            double standardDeviations,
            int evaluationPeriods,
            TreatMissingData missingData,
            String description) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(missingData, "missingData");
        requireName(name);
        requireDescription(name, description);
        CfnAnomalyDetector detector = CfnAnomalyDetector.Builder.create(this, name + "-baseline")
                .singleMetricAnomalyDetector(CfnAnomalyDetector.SingleMetricAnomalyDetectorProperty.builder()
                        .namespace(metric.getNamespace())
                        .metricName(metric.getMetricName())
                        .stat(metric.getStatistic())
                        .dimensions(
                                metric.getDimensions() == null
                                        ? null
                                        : metric.getDimensions().entrySet().stream()
                                                .map(d -> CfnAnomalyDetector.DimensionProperty.builder()
                                                        .name(d.getKey())
                                                        .value(String.valueOf(d.getValue()))
                                                        .build())
                                                .toList())
                        .build())
                .build();
        Alarm alarm = AnomalyDetectionAlarm.Builder.create(this, name)
                .alarmName(name)
                .alarmDescription(description)
                .metric(metric)
                .stdDevs(standardDeviations)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_UPPER_THRESHOLD)
                .evaluationPeriods(evaluationPeriods)
                .datapointsToAlarm(evaluationPeriods)
                .treatMissingData(missingData)
                .build();
        // The model the alarm's band reads exists before the alarm does (CloudFormation orders them by this only).
        alarm.getNode().addDependency(detector);
        return notifying(alarm);
    }

    /**
     * {@code <runbook>#<section>}: the link to a section of the runbook the props name, for the end of an alarm's
     * description ({@code "... Runbook: " + runbookLink("orders-rejected")}).
     */
    public String runbookLink(String section) {
        return runbook + "#" + Objects.requireNonNull(section, "section");
    }

    private Alarm notifying(Alarm alarm) {
        alarm.addAlarmAction(new SnsAction(alarmTopic));
        alarm.addOkAction(new SnsAction(alarmTopic));
        alarms.add(alarm);
        return alarm;
    }

    private void requireName(String name) {
        if (!name.startsWith(prefix + "-")) {
            throw new IllegalArgumentException(
                    "alarm " + name + " must start with " + prefix + "- : the alarm topic admits only alarms named so");
        }
    }

    private static void requireDescription(String name, String description) {
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw new IllegalArgumentException("alarm " + name + "'s description has " + description.length()
                    + " characters; CloudFormation takes at most " + MAX_DESCRIPTION);
        }
    }

    /**
     * Adds a row of the app's widgets under the dashboard's rows, laid out left to right (CloudWatch's grid is 24
     * wide).
     */
    public void addDashboardRow(IWidget... widgets) {
        dashboard.dashboard().addWidgets(widgets);
    }

    /** The topic every alarm notifies (its own, or the existing one given); subscribe people or a pager to it. */
    public ITopic alarmTopic() {
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
