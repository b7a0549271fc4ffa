package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MonitoringTest {

    private static final List<String> SOURCES = List.of("redrive-confirmation-email", "redrive-revenue-analytics");
    private static final List<String> DEAD_LETTER_QUEUES =
            List.of("redrive-confirmation-email-dlq", "redrive-revenue-analytics-dlq");
    private static final String SCHEDULE_DLQ = "redrive-sweeper-schedule-dlq";

    private final TemplateView t = Synth.defaults();

    private Map<String, Object> alarm(String name) {
        return t.resources("AWS::CloudWatch::Alarm").values().stream()
                .map(a -> map(a, "Properties"))
                .filter(p -> name.equals(p.get("AlarmName")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no alarm " + name));
    }

    private void assertQueueAlarm(
            Map<String, Object> alarm, String queue, String metric, String comparison, Number threshold) {
        assertThat(alarm.get("Namespace")).isEqualTo("AWS/SQS");
        assertThat(alarm.get("MetricName")).isEqualTo(metric);
        assertThat(alarm.get("ComparisonOperator")).isEqualTo(comparison);
        assertThat(alarm.get("Threshold")).isEqualTo(threshold);
        assertThat(String.valueOf(alarm.get("Dimensions"))).contains("QueueName", t.queue(queue));
    }

    @Test
    void everySourceQueueAlarmsOnAgeOfOldestMessageAndDepth() {
        for (String queue : SOURCES) {
            assertQueueAlarm(
                    alarm(queue + "-oldest-message-age"),
                    queue,
                    "ApproximateAgeOfOldestMessage",
                    "GreaterThanThreshold",
                    900);
            assertQueueAlarm(
                    alarm(queue + "-depth"),
                    queue,
                    "ApproximateNumberOfMessagesVisible",
                    "GreaterThanOrEqualToThreshold",
                    1000);
        }
    }

    @Test
    void everyDeadLetterQueueAlarmsOnAgeDepthAndArrivalsAboveTheirBaseline() {
        for (String queue : DEAD_LETTER_QUEUES) {
            assertQueueAlarm(
                    alarm(queue + "-oldest-message-age"),
                    queue,
                    "ApproximateAgeOfOldestMessage",
                    "GreaterThanThreshold",
                    3600);
            assertQueueAlarm(
                    alarm(queue + "-depth"),
                    queue,
                    "ApproximateNumberOfMessagesVisible",
                    "GreaterThanOrEqualToThreshold",
                    100);
            // Issue 40, point 4: no absolute any-message alarm; arrivals against a baseline (AlarmCoverageTest).
            Map<String, Object> arrivals = alarm(queue + "-arrivals-above-baseline");
            assertThat(arrivals).containsEntry("ComparisonOperator", "GreaterThanUpperThreshold");
        }
    }

    @Test
    void theScheduleDeadLetterQueueAlarmsOnArrivalsSoTheAlarmClearsWithoutADrain() {
        Map<String, Object> arrival = alarm(SCHEDULE_DLQ + "-arrival");

        assertThat(arrival)
                .containsEntry("Namespace", "AWS/SQS")
                .containsEntry("MetricName", "NumberOfMessagesSent")
                .containsEntry("Statistic", "Sum")
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("Threshold", 1)
                .containsEntry("EvaluationPeriods", 1)
                .containsEntry("TreatMissingData", "notBreaching");
        assertThat(String.valueOf(arrival.get("Dimensions"))).contains(t.queue(SCHEDULE_DLQ));
        assertThat(t.resources("AWS::CloudWatch::Alarm").values().stream()
                        .map(a -> String.valueOf(map(a, "Properties").get("AlarmName")))
                        .filter(n -> n.startsWith(SCHEDULE_DLQ)))
                .as("nothing drains it: an age or depth alarm would never clear")
                .containsExactly(SCHEDULE_DLQ + "-arrival");
    }

    @Test
    void theMailProvidersBreakerAlarmsWhenItStaysOpenLongerThanFifteenMinutes() {
        Map<String, Object> open = alarm("redrive-email-provider-breaker-open");

        assertThat(open)
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", "BreakerOpenSeconds")
                .containsEntry("Statistic", "Maximum")
                .containsEntry("Period", 600)
                .containsEntry("ComparisonOperator", "GreaterThanThreshold")
                .containsEntry("Threshold", 900)
                .containsEntry("TreatMissingData", "notBreaching");
        assertThat(open.get("Dimensions")).isEqualTo(List.of(Map.of("Name", "Dependency", "Value", "email-provider")));
        assertThat(String.valueOf(open.get("AlarmActions"))).contains("AlarmTopic");
    }

    /** Issue 36: attempts the reconciliation could not end (their voids unconfirmed) page someone. */
    @Test
    void checkoutAttemptsTheReconciliationCouldNotEndAlarm() {
        Map<String, Object> notEnded = alarm("redrive-checkout-attempts-not-ended");
        assertThat(notEnded)
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", "CheckoutAttemptsNotEnded")
                .containsEntry("Statistic", "Sum")
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("Threshold", 1)
                .containsEntry("EvaluationPeriods", 3)
                .containsEntry("DatapointsToAlarm", 3);
        assertThat((String) notEnded.get("AlarmDescription")).contains("could not end abandoned checkouts");
    }

    @Test
    void theOldestUnresolvedQuarantineAlarms() {
        Map<String, Object> oldest = alarm("redrive-oldest-unresolved-quarantine");
        assertThat(oldest)
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", "OldestUnresolvedQuarantineAgeSeconds")
                .containsEntry("Statistic", "Maximum")
                .containsEntry("ComparisonOperator", "GreaterThanThreshold")
                .containsEntry("Threshold", 3 * 24 * 3600);
    }

    @Test
    void theReplaySuccessRateIsMetricMathOverAnHourOfThePerRunCountsSoItClears() {
        Map<String, Object> rate = alarm("redrive-replay-success-rate");

        assertThat(rate)
                .doesNotContainKeys("MetricName", "Namespace")
                .containsEntry("ComparisonOperator", "LessThanThreshold")
                .containsEntry("Threshold", 0.9)
                .containsEntry("EvaluationPeriods", 1)
                .as("issue 40: the sweeper reports it each run; missing keeps the state, the heartbeat pages")
                .containsEntry("TreatMissingData", "ignore");
        List<Map<String, Object>> metrics =
                ((List<?>) rate.get("Metrics")).stream().map(TemplateView::cast).toList();
        Map<String, Object> expression = metrics.stream()
                .filter(m -> m.containsKey("Expression"))
                .findFirst()
                .orElseThrow();
        assertThat(expression.get("Expression"))
                .isEqualTo("IF(sent > 0, (sent - returned) / sent, IF(returned > 0, 0, 1))");
        assertThat(expression.get("ReturnData")).isEqualTo(true);
        Map<String, Map<String, Object>> inputs = new java.util.HashMap<>();
        metrics.stream()
                .filter(m -> m.containsKey("MetricStat"))
                .forEach(m -> inputs.put((String) m.get("Id"), map(m, "MetricStat")));
        assertThat(inputs).containsOnlyKeys("sent", "returned");
        assertThat(metrics)
                .extracting(m -> m.get("Id"))
                .as("in the order written, so every synth writes the same template")
                .containsExactly("expr_1", "sent", "returned");
        assertPerRunCount(inputs.get("sent"), "Replayed");
        assertPerRunCount(inputs.get("returned"), "ReplaysReturned");
    }

    private static void assertPerRunCount(Map<String, Object> stat, String name) {
        assertThat(stat).containsEntry("Stat", "Sum").containsEntry("Period", 3600);
        assertThat(map(stat, "Metric"))
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", name)
                .doesNotContainKey("Dimensions");
    }

    @Test
    void everyAlarmNotifiesTheAlarmTopic() {
        String topic = t.resources("AWS::SNS::Topic").keySet().iterator().next();
        assertThat(t.resources("AWS::CloudWatch::Alarm"))
                .as(
                        "per queue; 4 failure records' arrivals (3 schedules', the relay's); the sweeper's quarantine age, replay"
                                + " rate and heartbeat; errors and throttles of 7 functions (2 consumers, the sweeper, 4 of the"
                                + " producer's); throttles of 5 tables and 4 indexes; the account's concurrency; the mail"
                                + " provider's breaker; the producer's 4")
                .hasSize(2 * SOURCES.size() + 3 * DEAD_LETTER_QUEUES.size() + 4 + 3 + 2 * 7 + 5 + 4 + 1 + 1 + 4)
                .allSatisfy((id, alarm) -> assertThat(map(alarm, "Properties").get("AlarmActions"))
                        .isEqualTo(List.of(Map.of("Ref", topic))));
        assertThat(map(t.resource(topic), "Properties")).containsKey("KmsMasterKeyId");
    }

    @Test
    void theAlarmTopicPolicyLetsThisAccountsRedriveAlarmsPublish() {
        String topic = t.resources("AWS::SNS::Topic").keySet().iterator().next();
        var policies = t.resources("AWS::SNS::TopicPolicy");
        assertThat(policies).hasSize(1);
        Map<String, Object> policy = map(policies.values().iterator().next(), "Properties");
        assertThat(policy.get("Topics")).isEqualTo(List.of(Map.of("Ref", topic)));

        List<Map<String, Object>> allows = statements(map(policy, "PolicyDocument")).stream()
                .filter(s -> "Allow".equals(s.get("Effect")))
                .toList();
        assertThat(allows)
                .as("enforceSsl replaces SNS's default policy: without an Allow, CloudWatch may not publish")
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.get("Principal")).isEqualTo(Map.of("Service", "cloudwatch.amazonaws.com"));
                    assertThat(s.get("Action")).isEqualTo("sns:Publish");
                    assertThat(s.get("Resource")).isEqualTo(Map.of("Ref", topic));
                    assertOnlyThisStacksAlarms(s);
                });
    }

    @Test
    void theKeyLetsCloudWatchEncryptForTheTopicOnlyForThisAccountsRedriveAlarms() {
        String key = t.resources("AWS::KMS::Key").keySet().iterator().next();
        List<Map<String, Object>> forCloudWatch = statements(map(t.properties(key), "KeyPolicy")).stream()
                .filter(s -> Map.of("Service", "cloudwatch.amazonaws.com").equals(s.get("Principal")))
                .toList();

        assertThat(forCloudWatch).singleElement().satisfies(s -> {
            assertThat(s.get("Action")).isEqualTo(List.of("kms:Decrypt", "kms:GenerateDataKey*"));
            assertOnlyThisStacksAlarms(s);
        });
    }

    @Test
    void everyAlarmNameStartsWithThePrefixTheTopicPolicyAdmits() {
        assertThat(t.resources("AWS::CloudWatch::Alarm").values())
                .isNotEmpty()
                .allSatisfy(a -> assertThat(String.valueOf(map(a, "Properties").get("AlarmName")))
                        .startsWith("redrive-"));
    }

    /** aws:SourceAccount is this account and aws:SourceArn an alarm of this region and account named redrive-*. */
    private static void assertOnlyThisStacksAlarms(Map<String, Object> statement) {
        Map<String, Object> condition = map(statement, "Condition");
        assertThat(condition).containsOnlyKeys("StringEquals", "ArnLike");
        assertThat(map(condition, "StringEquals"))
                .isEqualTo(Map.of("aws:SourceAccount", Map.of("Ref", "AWS::AccountId")));
        Map<String, Object> arnLike = map(condition, "ArnLike");
        assertThat(arnLike).containsOnlyKeys("aws:SourceArn");
        assertThat(arnLike.get("aws:SourceArn"))
                .isEqualTo(Map.of(
                        "Fn::Join",
                        List.of(
                                "",
                                List.of(
                                        "arn:",
                                        Map.of("Ref", "AWS::Partition"),
                                        ":cloudwatch:",
                                        Map.of("Ref", "AWS::Region"),
                                        ":",
                                        Map.of("Ref", "AWS::AccountId"),
                                        ":alarm:redrive-*"))));
    }

    private static List<Map<String, Object>> statements(Map<String, Object> document) {
        return ((List<?>) document.get("Statement"))
                .stream().map(TemplateView::cast).toList();
    }

    @Test
    void dashboardChartsQueuesDeadLettersQuarantineReplaysAndConsumers() {
        var dashboards = t.resources("AWS::CloudWatch::Dashboard");
        assertThat(dashboards).hasSize(1);
        String body = String.valueOf(
                map(dashboards.values().iterator().next(), "Properties").get("DashboardBody"));

        assertThat(body).contains("ApproximateNumberOfMessagesVisible", "ApproximateAgeOfOldestMessage");
        for (String queue : SOURCES) {
            assertThat(body).contains(t.queue(queue));
        }
        assertThat(body)
                .contains("{Redrive,Consumer,FailureClass} MetricName=\\\"DeadLettered")
                .contains("{Redrive,FailureClass} MetricName=\\\"Quarantined")
                .contains("Replayed", "ReplayFailed", "AlreadyApplied", "Archived")
                .contains("\"Processed\",\"Consumer\",\"confirmation-email\"")
                .contains("\"Duplicates\",\"Consumer\",\"revenue-analytics\"")
                .contains("\"BreakerCallsRefused\",\"Dependency\",\"email-provider\"")
                .contains("\"BreakerOpenSeconds\",\"Dependency\",\"email-provider\"");
    }

    @Test
    void dashboardShowsTheBreakersTransitionsAndTheirHistoryFromTheConsumersLogs() {
        String body = String.valueOf(map(
                        t.resources("AWS::CloudWatch::Dashboard")
                                .values()
                                .iterator()
                                .next(),
                        "Properties")
                .get("DashboardBody"));

        assertThat(body)
                .contains("{Redrive,Dependency,State} MetricName=\\\"BreakerTransitions")
                .contains("\"type\":\"log\"")
                .contains("Circuit breakers: history")
                .contains("filter @message like \\\"circuit breaker of \\\"")
                .contains("parse @message \\\"circuit breaker of *: * -> * (token *): *\\\"");
        for (String consumer : List.of("confirmation-email", "revenue-analytics")) {
            Map<String, Object> logging = map(t.properties(t.function(consumer)), "LoggingConfig");
            assertThat(body)
                    .as("the history reads %s's log group", consumer)
                    .contains(String.valueOf(logging.get("LogGroup")));
        }
    }
}
