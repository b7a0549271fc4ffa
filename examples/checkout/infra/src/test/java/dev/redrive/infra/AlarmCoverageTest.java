package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 40, points 4 and 7: DLQ arrivals against a learned baseline (so an alarm returns to OK at a steady rate),
 * errors and throttles of every function, DynamoDB throttles of every table and index, account concurrency, the
 * sweeper's heartbeat, deliberate missing-data treatment, thresholds as settings, true descriptions with a runbook
 * link, and someone subscribed to the topic.
 */
class AlarmCoverageTest {

    private static final List<String> DEAD_LETTER_QUEUES =
            List.of("redrive-confirmation-email-dlq", "redrive-revenue-analytics-dlq");
    private static final List<String> FUNCTIONS = List.of(
            "confirmation-email",
            "revenue-analytics",
            "sweeper",
            "checkout",
            "outbox-relay",
            "outbox-sweeper",
            "checkout-reconciliation");
    private static final Path RUNBOOK = Path.of("..", "..", "..", "docs", "runbook.md");

    private final TemplateView t = Synth.defaults();

    private static Map<String, Map<String, Object>> alarms(TemplateView view) {
        Map<String, Map<String, Object>> out = new java.util.LinkedHashMap<>();
        view.resources("AWS::CloudWatch::Alarm").values().forEach(a -> {
            Map<String, Object> p = map(a, "Properties");
            out.put(String.valueOf(p.get("AlarmName")), p);
        });
        return out;
    }

    private Map<String, Object> alarm(String name) {
        Map<String, Object> alarm = alarms(t).get(name);
        assertThat(alarm).as("alarm " + name).isNotNull();
        return alarm;
    }

    /** Point 4: a steady dead-letter rate is learned as normal; only a jump above the band alarms. */
    @Test
    void deadLetterArrivalsAlarmAboveAnAnomalyDetectionBandOfTheSweepersArrivals() {
        var detectors = t.resources("AWS::CloudWatch::AnomalyDetector");
        for (String queue : DEAD_LETTER_QUEUES) {
            assertThat(detectors.values().stream().map(d -> map(d, "Properties")))
                    .as("a model of %s's arrivals", queue)
                    .anySatisfy(d -> {
                        Map<String, Object> single = map(d, "SingleMetricAnomalyDetector");
                        assertThat(single)
                                .containsEntry("Namespace", "Redrive")
                                .containsEntry("MetricName", "Arrivals")
                                .containsEntry("Stat", "Sum")
                                .containsEntry(
                                        "Dimensions", List.of(Map.of("Name", "DeadLetterQueue", "Value", queue)));
                    });
            Map<String, Object> alarm = alarm(queue + "-arrivals-above-baseline");
            assertThat(alarm)
                    .containsEntry("ComparisonOperator", "GreaterThanUpperThreshold")
                    .containsEntry("TreatMissingData", "ignore")
                    .doesNotContainKeys("Threshold", "MetricName");
            String band = String.valueOf(alarm.get("ThresholdMetricId"));
            List<Map<String, Object>> metrics = ((List<?>) alarm.get("Metrics"))
                    .stream().map(TemplateView::cast).toList();
            assertThat(metrics)
                    .anySatisfy(m -> assertThat(m)
                            .containsEntry("Id", band)
                            .containsEntry("Expression", "ANOMALY_DETECTION_BAND(m0, 2)"));
            assertThat(metrics).anySatisfy(m -> {
                assertThat(m).containsEntry("Id", "m0");
                Map<String, Object> stat = map(m, "MetricStat");
                assertThat(stat).containsEntry("Stat", "Sum").containsEntry("Period", 300);
                assertThat(map(stat, "Metric"))
                        .containsEntry("Namespace", "Redrive")
                        .containsEntry("MetricName", "Arrivals")
                        .containsEntry("Dimensions", List.of(Map.of("Name", "DeadLetterQueue", "Value", queue)));
            });
            assertThat(alarms(t))
                    .as("no absolute any-message alarm that sits in ALARM at a steady 1 %% rate")
                    .doesNotContainKey(queue + "-arrival");
        }
    }

    @Test
    void everyFunctionAlarmsOnItsErrorsAndThrottles() {
        for (String function : FUNCTIONS) {
            for (String metric : List.of("Errors", "Throttles")) {
                Map<String, Object> alarm = alarm("redrive-" + function + "-" + metric.toLowerCase(Locale.ROOT));
                assertThat(alarm)
                        .containsEntry("Namespace", "AWS/Lambda")
                        .containsEntry("MetricName", metric)
                        .containsEntry("Statistic", "Sum")
                        .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                        .containsEntry("Threshold", 1)
                        .containsEntry("TreatMissingData", "notBreaching");
                assertThat(String.valueOf(alarm.get("Dimensions"))).contains("FunctionName");
            }
        }
    }

    /** Table and index throttles: an index's throttles are only seen with its GlobalSecondaryIndexName dimension. */
    @Test
    void everyTableAndEveryGlobalSecondaryIndexAlarmsOnThrottleEvents() {
        Map<String, List<String>> tables = Map.of(
                "claims", List.of(),
                "quarantine", List.of("byState", "byQueue"),
                "control", List.of(),
                "revenue", List.of(),
                "orders", List.of("byUnpublished", "byOpenAttempt"));
        tables.forEach((table, indexes) -> {
            assertThrottleAlarm(alarm("redrive-" + table + "-table-throttles"), null);
            for (String index : indexes) {
                assertThrottleAlarm(alarm("redrive-" + table + "-" + index + "-index-throttles"), index);
            }
        });
    }

    private static void assertThrottleAlarm(Map<String, Object> alarm, String index) {
        assertThat(alarm)
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("Threshold", 1)
                .as("AWS/DynamoDB alarms always ignore missing data; FILL(…, 0) lets them return to OK")
                .containsEntry("TreatMissingData", "notBreaching");
        String metrics = String.valueOf(alarm.get("Metrics"));
        assertThat(metrics)
                .contains("FILL(reads, 0) + FILL(writes, 0)")
                .contains("MetricName=ReadThrottleEvents", "MetricName=WriteThrottleEvents")
                .contains("Namespace=AWS/DynamoDB", "Name=TableName");
        if (index == null) {
            assertThat(metrics).doesNotContain("GlobalSecondaryIndexName");
        } else {
            assertThat(metrics).contains("Name=GlobalSecondaryIndexName, Value=" + index);
        }
    }

    @Test
    void theAccountsClaimedConcurrencyAlarmsNearTheDefaultQuota() {
        assertThat(alarm("redrive-account-concurrency"))
                .containsEntry("Namespace", "AWS/Lambda")
                .containsEntry("MetricName", "ClaimedAccountConcurrency")
                .containsEntry("Statistic", "Maximum")
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("Threshold", 900)
                .containsEntry("TreatMissingData", "notBreaching")
                .doesNotContainKey("Dimensions");
    }

    /** A sweeper that stops running emits nothing: missing data is what must page. */
    @Test
    void theSweepersHeartbeatAlarmsWhenNoRunReportedWithMissingDataBreaching() {
        assertThat(alarm("redrive-sweeper-heartbeat"))
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", "Replayed")
                .containsEntry("Statistic", "SampleCount")
                .containsEntry("Period", 1800)
                .containsEntry("EvaluationPeriods", 1)
                .containsEntry("ComparisonOperator", "LessThanThreshold")
                .containsEntry("Threshold", 1)
                .containsEntry("TreatMissingData", "breaching")
                .doesNotContainKey("Dimensions");
    }

    /** Missing data = OK is wrong where the metric goes missing because its emitter stopped. */
    @Test
    void everyAlarmTreatsMissingDataDeliberately() {
        assertThat(alarms(t)).allSatisfy((name, a) -> assertThat(a).containsKey("TreatMissingData"));
        assertThat(alarm("redrive-oldest-unresolved-quarantine")).containsEntry("TreatMissingData", "ignore");
        assertThat(alarm("redrive-replay-success-rate")).containsEntry("TreatMissingData", "ignore");
        assertThat(alarm("redrive-outbox-oldest-unpublished")).containsEntry("TreatMissingData", "ignore");
    }

    /** The relay's failure queue and the producer's schedules' DLQs are not the sweeper's: each says what it is. */
    @Test
    void eachFailureRecordsDescriptionSaysWhatFailed() {
        assertThat(description("redrive-sweeper-schedule-dlq-arrival")).startsWith("A dead-letter sweeper run");
        assertThat(description("redrive-outbox-relay-failures-arrival"))
                .startsWith("The outbox relay gave up on")
                .doesNotContain("sweep");
        assertThat(description("redrive-outbox-schedule-dlq-arrival"))
                .startsWith("An outbox sweep run")
                .doesNotContain("dead-letter sweeper");
        assertThat(description("redrive-reconciliation-schedule-dlq-arrival"))
                .startsWith("A checkout reconciliation run")
                .doesNotContain("sweep");
    }

    private String description(String alarm) {
        return String.valueOf(alarm(alarm).get("AlarmDescription"));
    }

    private static final Pattern LINK = Pattern.compile("Runbook: docs/runbook\\.md#([a-z0-9-]+)$");

    /** Every alarm's description ends in a link to its runbook section, and that section exists. */
    @Test
    void everyAlarmLinksToARunbookSectionThatExists() throws IOException {
        Set<String> anchors = anchors(Files.readString(RUNBOOK));
        Set<String> linked = new LinkedHashSet<>();
        assertThat(alarms(t)).hasSizeGreaterThan(40).allSatisfy((name, a) -> {
            String description = String.valueOf(a.get("AlarmDescription"));
            Matcher link = LINK.matcher(description);
            assertThat(link.find())
                    .as("%s links its runbook section: %s", name, description)
                    .isTrue();
            assertThat(anchors).as("%s's section", name).contains(link.group(1));
            assertThat(description.length()).as("CloudFormation's limit").isLessThanOrEqualTo(1024);
            linked.add(link.group(1));
        });
        assertThat(linked).hasSizeGreaterThanOrEqualTo(15);
    }

    /** GitHub's heading anchors: lower case, punctuation but '-' dropped, spaces to '-'. */
    static Set<String> anchors(String markdown) {
        Set<String> out = new LinkedHashSet<>();
        for (String line : markdown.split("\n")) {
            if (line.startsWith("#")) {
                String heading = line.replaceFirst("^#+\\s*", "").trim().toLowerCase(Locale.ROOT);
                out.add(heading.replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
            }
        }
        return out;
    }

    @Test
    void noSubscriberByDefaultAndTheGivenEmailAndHttpsEndpointsSubscribe() {
        assertThat(t.resources("AWS::SNS::Subscription")).isEmpty();

        TemplateView subscribed = Synth.template(Map.of(
                "alarmEmails", "oncall@example.org,team@example.org",
                "alarmHttpsEndpoints", "https://pager.example.org/hook"));
        String topic =
                subscribed.resources("AWS::SNS::Topic").keySet().iterator().next();
        List<List<Object>> subscriptions = new ArrayList<>();
        subscribed.resources("AWS::SNS::Subscription").values().forEach(s -> {
            Map<String, Object> p = map(s, "Properties");
            assertThat(p.get("TopicArn")).isEqualTo(Map.of("Ref", topic));
            subscriptions.add(List.of(p.get("Protocol"), p.get("Endpoint")));
        });
        assertThat(subscriptions)
                .containsExactlyInAnyOrder(
                        List.of("email", "oncall@example.org"),
                        List.of("email", "team@example.org"),
                        List.of("https", "https://pager.example.org/hook"));
    }

    @Test
    void theThresholdsAreContextSettings() {
        TemplateView tuned = Synth.template(Map.of(
                "alarmSourceOldestMessageAge", "PT5M",
                "alarmDeadLetterArrivalBand", "3",
                "alarmFunctionErrors", "4",
                "alarmAccountConcurrency", "450",
                "alarmSweeperHeartbeat", "PT1H",
                "alarmTableThrottles", "10",
                "alarmRelayIteratorAge", "PT2M"));
        Map<String, Map<String, Object>> a = alarms(tuned);

        assertThat(a.get("redrive-confirmation-email-oldest-message-age")).containsEntry("Threshold", 300);
        assertThat(String.valueOf(a.get("redrive-confirmation-email-dlq-arrivals-above-baseline")
                        .get("Metrics")))
                .contains("ANOMALY_DETECTION_BAND(m0, 3)");
        assertThat(a.get("redrive-sweeper-errors")).containsEntry("Threshold", 4);
        assertThat(a.get("redrive-account-concurrency")).containsEntry("Threshold", 450);
        assertThat(a.get("redrive-sweeper-heartbeat")).containsEntry("Period", 3600);
        assertThat(a.get("redrive-claims-table-throttles")).containsEntry("Threshold", 10);
        assertThat(a.get("redrive-outbox-relay-iterator-age")).containsEntry("Threshold", 120_000);
    }

    @Test
    void aBadThresholdSettingIsRefusedNamingItsKey() {
        assertThatThrownBy(() -> Synth.stack(Map.of("alarmFunctionErrors", "many")))
                .hasMessageContaining("alarmFunctionErrors");
        assertThatThrownBy(() -> Synth.stack(Map.of("alarmSweeperHeartbeat", "PT1M", "sweepRate", "rate(5 minutes)")))
                .hasMessageContaining("sweeperHeartbeat");
        assertThatThrownBy(() -> Synth.stack(Map.of("alarmEmails", "not-an-address")))
                .hasMessageContaining("not-an-address");
        assertThatThrownBy(() -> Synth.stack(Map.of("alarmHttpsEndpoints", "http://pager.example.org")))
                .hasMessageContaining("http://pager.example.org");
    }
}
