package dev.redrive.cdk.monitoring.internal;

import dev.redrive.cdk.monitoring.AlarmThresholds;
import dev.redrive.cdk.monitoring.MonitoredFunction;
import dev.redrive.cdk.monitoring.MonitoredQueue;
import dev.redrive.cdk.monitoring.MonitoredTable;
import dev.redrive.cdk.monitoring.Monitoring;
import dev.redrive.cdk.monitoring.MonitoringProps;
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
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.lambda.IFunction;

/**
 * The platform's own alarms, added to a {@link Monitoring} through {@link Monitoring#addAlarm} as an app's are: per
 * queue by its kind, the sweeper's, per function, per table and index, the account's concurrency, and per circuit
 * breaker; every threshold from {@link AlarmThresholds}, every missing-data treatment chosen for what a missing metric
 * means, every description ending in its runbook section ({@link RunbookSections}).
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
            // NumberOfMessagesSent counts what a destination or a scheduler sends to it (not a redrive policy's moves).
            String meaning = q.arrivalMeaning() != null
                    ? q.arrivalMeaning()
                    : "A failure was recorded in " + q.name() + " (a run of a schedule or an asynchronous invocation"
                            + " failed)";
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
                    TreatMissingData.NOT_BREACHING,
                    meaning + ". " + q.name() + " holds the details (it is not drained and keeps them 14 days); the"
                            + " alarm clears after a period without a new one.",
                    RunbookSections.FAILURE_RECORD);
            return;
        }
        MetricOptions maximum =
                MetricOptions.builder().statistic("Maximum").period(period()).build();
        Duration age = Duration.seconds(
                (q.deadLetter() ? thresholds.deadLetterOldestMessageAge() : thresholds.sourceOldestMessageAge())
                        .toSeconds());
        int depth = q.deadLetter() ? thresholds.deadLetterVisibleMessages() : thresholds.sourceVisibleMessages();
        int periods = thresholds.evaluationPeriods();
        // SQS reports an idle queue's metrics for hours after its last activity, then none: missing means empty.
        alarm(
                alarmName(q, "oldest-message-age"),
                q.queue().metricApproximateAgeOfOldestMessage(maximum),
                age.toSeconds(),
                ComparisonOperator.GREATER_THAN_THRESHOLD,
                periods,
                TreatMissingData.NOT_BREACHING,
                q.deadLetter()
                        ? "The oldest dead letter in " + q.name() + " is older than " + age.toHumanString() + " in "
                                + periods + " periods in a row: the sweeper is not draining it."
                        : "The oldest message in " + q.name() + " is older than " + age.toHumanString() + " in "
                                + periods + " periods in a row: its consumer is behind, failing or not polling.",
                q.deadLetter() ? RunbookSections.DEAD_LETTER_AGE : RunbookSections.SOURCE_AGE);
        alarm(
                alarmName(q, "depth"),
                q.queue().metricApproximateNumberOfMessagesVisible(maximum),
                depth,
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                periods,
                TreatMissingData.NOT_BREACHING,
                q.deadLetter()
                        ? "At least " + depth + " dead letters wait in " + q.name() + " in " + periods
                                + " periods in a row: a flood of failures, or the sweeper cannot keep up."
                        : "At least " + depth + " messages wait in " + q.name() + " in " + periods
                                + " periods in a row: its consumer does not keep up.",
                q.deadLetter() ? RunbookSections.DEAD_LETTER_DEPTH : RunbookSections.SOURCE_DEPTH);
        if (q.deadLetter()) {
            // SQS's NumberOfMessagesSent does not count what a redrive policy moves into a DLQ: the sweeper's count of
            // what it found there, per run, is the arrival rate. A steady rate is learned as normal and the alarm
            // returns to OK; a jump above the band fires it again. Missing (the sweeper not running): keep the state,
            // the heartbeat alarm pages for that.
            monitoring.addAboveBaselineAlarm(
                    alarmName(q, "arrivals-above-baseline"),
                    Metric.Builder.create()
                            .namespace(Metrics.NAMESPACE)
                            .metricName(Metrics.ARRIVALS)
                            .dimensionsMap(Map.of(Dimensions.DEAD_LETTER_QUEUE, q.name()))
                            .statistic("Sum")
                            .period(period())
                            .build(),
                    thresholds.deadLetterArrivalBand(),
                    periods,
                    TreatMissingData.IGNORE,
                    described(
                            "Dead letters arrive in " + q.name() + " faster than its learned baseline ("
                                    + thresholds.deadLetterArrivalBand() + " standard deviations) in " + periods
                                    + " periods in a row: a new failure, not the usual rate. The sweeper quarantines"
                                    + " them; see which failure class grew.",
                            RunbookSections.DEAD_LETTER_ARRIVALS));
        }
    }

    /**
     * The sweeper's alarms: the oldest unresolved quarantine entry and the replay success rate (missing data keeps
     * their state: the sweeper stopped, which its heartbeat reports), its heartbeat (no run reported in the window:
     * missing data breaches), and its errors and throttles.
     */
    public void sweeperAlarms(IFunction sweeper) {
        alarm(
                prefix + "-oldest-unresolved-quarantine",
                custom(Metrics.OLDEST_UNRESOLVED_QUARANTINE_AGE, "Maximum", period()),
                thresholds.oldestUnresolvedQuarantine().toSeconds(),
                ComparisonOperator.GREATER_THAN_THRESHOLD,
                1,
                TreatMissingData.IGNORE,
                "A quarantined dead letter has waited for a person's decision for more than "
                        + Duration.seconds(
                                        thresholds.oldestUnresolvedQuarantine().toSeconds())
                                .toHumanString()
                        + ".",
                RunbookSections.OLDEST_UNRESOLVED);
        alarm(
                prefix + "-replay-success-rate",
                replaySuccessRate(),
                thresholds.replaySuccessRate(),
                ComparisonOperator.LESS_THAN_THRESHOLD,
                1,
                TreatMissingData.IGNORE,
                "Replays keep returning to the dead-letter queues: fewer than " + thresholds.replaySuccessRate()
                        + " of the replays of the last "
                        + thresholds.replaySuccessWindow().toMinutes()
                        + " min stayed out (or replays returned in a window that sent none).",
                RunbookSections.REPLAY_SUCCESS_RATE);
        Duration heartbeat = Duration.seconds(thresholds.sweeperHeartbeat().toSeconds());
        // Every run that gets to export its figures reports Replayed (0 included): its sample count is the runs.
        alarm(
                prefix + "-sweeper-heartbeat",
                custom(Metrics.REPLAYED, "SampleCount", heartbeat),
                1,
                ComparisonOperator.LESS_THAN_THRESHOLD,
                1,
                TreatMissingData.BREACHING,
                "No dead-letter sweeper run reported its figures for " + heartbeat.toHumanString()
                        + ": the sweeper is not running (schedule disabled or failing, runs timing out or failing"
                        + " before the end). Dead letters are not quarantined or replayed, and the quarantine"
                        + " alarms keep their last state.",
                RunbookSections.SWEEPER_HEARTBEAT);
        functionAlarms(new MonitoredFunction(MonitoringProps.SWEEPER, sweeper));
    }

    /**
     * A function's errors and throttles in a period. Lambda reports them only for invoked functions: missing data is
     * no invocation, not breaching (a scheduled function that stops running is its heartbeat's to report).
     */
    public void functionAlarms(MonitoredFunction f) {
        MetricOptions sum =
                MetricOptions.builder().statistic("Sum").period(period()).build();
        alarm(
                prefix + "-" + f.name() + "-errors",
                f.function().metricErrors(sum),
                thresholds.functionErrors(),
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                1,
                TreatMissingData.NOT_BREACHING,
                "The function " + f.name() + " failed at least " + thresholds.functionErrors()
                        + " time(s) in a period (an unhandled error, a timeout or running out of memory).",
                RunbookSections.FUNCTION_ERRORS);
        alarm(
                prefix + "-" + f.name() + "-throttles",
                f.function().metricThrottles(sum),
                thresholds.functionThrottles(),
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                1,
                TreatMissingData.NOT_BREACHING,
                "Lambda throttled the function " + f.name() + " at least " + thresholds.functionThrottles()
                        + " time(s) in a period: its reserved concurrency or the account's concurrency is used up.",
                RunbookSections.FUNCTION_THROTTLES);
    }

    /**
     * A table's read plus write throttle events, and each of its global secondary indexes' (reported only under the
     * index's {@code GlobalSecondaryIndexName}). DynamoDB reports throttle events only when there are some, and
     * alarms on {@code AWS/DynamoDB} metrics keep their state on missing data whatever they are told: {@code FILL(...,
     * 0)} makes a quiet period a 0, so the alarm returns to OK.
     */
    public void tableAlarms(MonitoredTable t) {
        throttleAlarm(t, null);
        t.indexes().forEach(index -> throttleAlarm(t, index));
    }

    private void throttleAlarm(MonitoredTable t, String index) {
        Map<String, String> dimensions = new LinkedHashMap<>();
        dimensions.put("TableName", t.table().getTableName());
        if (index != null) {
            dimensions.put("GlobalSecondaryIndexName", index);
        }
        Map<String, IMetric> inputs = new LinkedHashMap<>();
        inputs.put("reads", dynamo("ReadThrottleEvents", dimensions));
        inputs.put("writes", dynamo("WriteThrottleEvents", dimensions));
        String what = index == null ? "The table " + t.name() : "The index " + index + " of the table " + t.name();
        alarm(
                index == null
                        ? prefix + "-" + t.name() + "-table-throttles"
                        : prefix + "-" + t.name() + "-" + index + "-index-throttles",
                MathExpression.Builder.create()
                        .expression("FILL(reads, 0) + FILL(writes, 0)")
                        .usingMetrics(inputs)
                        .period(period())
                        .label(t.name() + (index == null ? "" : " " + index) + " throttle events")
                        .build(),
                thresholds.tableThrottles(),
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                1,
                TreatMissingData.NOT_BREACHING,
                what + " throttled at least " + thresholds.tableThrottles() + " read or write event(s) in a period"
                        + (index == null
                                ? "."
                                : ": a throttled index write throttles the table's write that caused it."),
                RunbookSections.TABLE_THROTTLES);
    }

    private Metric dynamo(String name, Map<String, String> dimensions) {
        return Metric.Builder.create()
                .namespace("AWS/DynamoDB")
                .metricName(name)
                .dimensionsMap(dimensions)
                .statistic("Sum")
                .period(period())
                .build();
    }

    /**
     * The account's claimed concurrency in the region ({@code ClaimedAccountConcurrency}: unreserved concurrent
     * executions plus reserved and provisioned concurrency); reported only while functions run, so missing is not
     * breaching.
     */
    public void accountConcurrencyAlarm() {
        alarm(
                prefix + "-account-concurrency",
                Metric.Builder.create()
                        .namespace("AWS/Lambda")
                        .metricName("ClaimedAccountConcurrency")
                        .statistic("Maximum")
                        .period(period())
                        .build(),
                thresholds.accountConcurrency(),
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                1,
                TreatMissingData.NOT_BREACHING,
                "The account's claimed Lambda concurrency in this region reached " + thresholds.accountConcurrency()
                        + ": further invocations of any function without reserved concurrency will be throttled.",
                RunbookSections.ACCOUNT_CONCURRENCY);
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
                TreatMissingData.NOT_BREACHING,
                "The circuit breaker of " + dependency + " has been open for more than "
                        + thresholds.breakerOpen().toMinutes() + " min: its messages are deferred, not sent. Check "
                        + dependency + "; for a planned outage, `redrive window add` lets the sweeper replay what "
                        + "reaches the dead-letter queue.",
                RunbookSections.BREAKER_OPEN);
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
            TreatMissingData missingData,
            String meaning,
            String section) {
        monitoring.addAlarm(
                name,
                metric,
                CreateAlarmOptions.builder()
                        .alarmDescription(described(meaning, section))
                        .threshold(threshold)
                        .comparisonOperator(comparison)
                        .evaluationPeriods(evaluationPeriods)
                        .treatMissingData(missingData)
                        .build());
    }

    /** What an alarm means, then its runbook section: {@code "... Runbook: <runbook>#<section>"}. */
    private String described(String meaning, String section) {
        return meaning + " Runbook: " + monitoring.runbookLink(section);
    }

    private Duration period() {
        return Duration.seconds(thresholds.period().toSeconds());
    }
}
