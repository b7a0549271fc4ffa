package dev.redrive.cdk.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.names.RedriveNames.Metrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.CreateAlarmOptions;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.TextWidget;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;
import software.constructs.Construct;

/**
 * The generic monitoring construct on a small stack of its own (a key, a consumer's queue and DLQ, a schedule's DLQ, a
 * sweeper function): every alarm with its metric, dimensions, threshold and topic; the topic and key policies; the
 * dashboard's widgets; and the extension point an app adds its own alarms and rows with.
 */
class MonitoringTest {

    private static int apps;

    /** The stack, and the monitoring made on it. */
    private static final class Fixture {
        final Stack stack = new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/monitoring-" + (++apps))
                        .build()),
                "Team");
        final Key key = Key.Builder.create(stack, "Key").build();
        final Queue dlq =
                Queue.Builder.create(stack, "OrdersDlq").queueName("orders-dlq").build();
        final Queue source =
                Queue.Builder.create(stack, "Orders").queueName("orders").build();
        final Queue scheduleDlq = Queue.Builder.create(stack, "ScheduleDlq")
                .queueName("shop-sweeper-schedule-dlq")
                .build();
        final Function sweeper = Function.Builder.create(stack, "Sweeper")
                .runtime(Runtime.NODEJS_20_X)
                .handler("index.handler")
                .code(Code.fromInline("exports.handler = async () => ({});"))
                .build();
        final Monitoring monitoring;

        Fixture(UnaryOperator<AlarmThresholds> thresholds) {
            monitoring = new Monitoring(
                    stack,
                    "Monitoring",
                    new MonitoringProps(
                            "shop",
                            key,
                            List.of(
                                    new MonitoredQueue("orders", source, MonitoredQueue.Kind.SOURCE),
                                    new MonitoredQueue("orders-dlq", dlq, MonitoredQueue.Kind.DEAD_LETTER),
                                    new MonitoredQueue(
                                            "shop-sweeper-schedule-dlq",
                                            scheduleDlq,
                                            MonitoredQueue.Kind.FAILURE_RECORD)),
                            List.of("receipts"),
                            List.of("mail-provider"),
                            List.of("/aws/lambda/receipts"),
                            sweeper,
                            thresholds.apply(AlarmThresholds.DEFAULT)));
        }

        Fixture() {
            this(UnaryOperator.identity());
        }

        Template template() {
            return Template.fromStack(stack);
        }

        /** The logical id of what {@code construct} makes. */
        String ref(Construct construct) {
            return stack.getLogicalId((CfnElement) construct.getNode().getDefaultChild());
        }
    }

    /**
     * The fixture with the default thresholds, and its template, made once for the tests that only read them: each
     * synth through jsii takes about a second. A test that adds to a fixture (an alarm, a row, another construct) or
     * gives other thresholds makes its own.
     */
    private static Fixture defaults;

    private static Template defaultTemplate;

    private static synchronized Fixture defaults() {
        if (defaults == null) {
            defaults = new Fixture();
        }
        return defaults;
    }

    private static synchronized Template defaultTemplate() {
        if (defaultTemplate == null) {
            defaultTemplate = defaults().template();
        }
        return defaultTemplate;
    }

    /** The alarms of the template by their AlarmName, each its Properties. */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> alarms(Template template) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        template.findResources("AWS::CloudWatch::Alarm").values().forEach(r -> {
            Map<String, Object> p = (Map<String, Object>) r.get("Properties");
            out.put((String) p.get("AlarmName"), p);
        });
        return out;
    }

    private static Map<String, Object> alarm(Template template, String name) {
        Map<String, Object> alarm = alarms(template).get(name);
        assertThat(alarm).as("alarm " + name).isNotNull();
        return alarm;
    }

    /** The dashboard's body as text, every reference written as {@code <Logical id>}. */
    @SuppressWarnings("unchecked")
    private static String dashboardBody(Template template) {
        Map<String, Map<String, Object>> dashboards = template.findResources("AWS::CloudWatch::Dashboard");
        assertThat(dashboards).hasSize(1);
        Map<String, Object> props =
                (Map<String, Object>) dashboards.values().iterator().next().get("Properties");
        assertThat(props).containsEntry("DashboardName", "shop-redrive");
        Object body = props.get("DashboardBody");
        if (body instanceof String text) {
            return text;
        }
        List<Object> join = (List<Object>) ((Map<String, Object>) body).get("Fn::Join");
        StringBuilder text = new StringBuilder();
        for (Object part : (List<Object>) join.get(1)) {
            text.append(part instanceof String s ? s : "<" + reference((Map<String, Object>) part) + ">");
        }
        return text.toString();
    }

    @SuppressWarnings("unchecked")
    private static String reference(Map<String, Object> intrinsic) {
        if (intrinsic.get("Ref") instanceof String ref) {
            return ref;
        }
        if (intrinsic.get("Fn::GetAtt") instanceof List<?> getAtt) {
            return getAtt.get(0) + "." + getAtt.get(1);
        }
        return String.valueOf(intrinsic);
    }

    private static void assertQueueAlarm(
            Map<String, Object> alarm,
            String queueLogicalId,
            String metric,
            String comparison,
            Number threshold,
            int evaluationPeriods) {
        assertThat(alarm)
                .containsEntry("Namespace", "AWS/SQS")
                .containsEntry("MetricName", metric)
                .containsEntry("Statistic", "Maximum")
                .containsEntry("Period", 300)
                .containsEntry("ComparisonOperator", comparison)
                .containsEntry("Threshold", threshold)
                .containsEntry("EvaluationPeriods", evaluationPeriods)
                .containsEntry("DatapointsToAlarm", evaluationPeriods)
                .containsEntry("TreatMissingData", "notBreaching");
        assertThat(alarm.get("Dimensions"))
                .isEqualTo(List.of(Map.of(
                        "Name", "QueueName", "Value", Map.of("Fn::GetAtt", List.of(queueLogicalId, "QueueName")))));
    }

    @Test
    void aSourceQueueAlarmsOnTheAgeOfItsOldestMessageAndItsDepth() {
        Fixture f = defaults();
        Template t = defaultTemplate();

        assertQueueAlarm(
                alarm(t, "shop-orders-oldest-message-age"),
                f.ref(f.source),
                "ApproximateAgeOfOldestMessage",
                "GreaterThanThreshold",
                900,
                3);
        assertQueueAlarm(
                alarm(t, "shop-orders-depth"),
                f.ref(f.source),
                "ApproximateNumberOfMessagesVisible",
                "GreaterThanOrEqualToThreshold",
                1000,
                3);
        assertThat(alarms(t)).doesNotContainKey("shop-orders-arrival");
    }

    @Test
    void aDeadLetterQueueAlarmsOnAgeDepthAndArrivalsAboveTheirLearnedBaseline() {
        Fixture f = defaults();
        Template t = defaultTemplate();

        assertQueueAlarm(
                alarm(t, "shop-orders-dlq-oldest-message-age"),
                f.ref(f.dlq),
                "ApproximateAgeOfOldestMessage",
                "GreaterThanThreshold",
                3600,
                3);
        assertQueueAlarm(
                alarm(t, "shop-orders-dlq-depth"),
                f.ref(f.dlq),
                "ApproximateNumberOfMessagesVisible",
                "GreaterThanOrEqualToThreshold",
                100,
                3);
        // Issue 40, point 4: an absolute "any message" alarm sits in ALARM for good at a steady 1 % rate.
        assertThat(alarms(t)).doesNotContainKey("shop-orders-dlq-arrival");
        Map<String, Object> arrivals = alarm(t, "shop-orders-dlq-arrivals-above-baseline");
        assertThat(arrivals)
                .containsEntry("ComparisonOperator", "GreaterThanUpperThreshold")
                .containsEntry("EvaluationPeriods", 3)
                .containsEntry("DatapointsToAlarm", 3)
                .containsEntry("TreatMissingData", "ignore")
                .containsEntry("ThresholdMetricId", "expr_1")
                .doesNotContainKeys("Threshold", "MetricName");
        assertThat(arrivals.get("Metrics"))
                .isEqualTo(List.of(
                        Map.of(
                                "Expression", "ANOMALY_DETECTION_BAND(m0, 2)",
                                "Id", "expr_1",
                                "Label", "Anomaly Detection Band",
                                "ReturnData", true),
                        Map.of(
                                "Id",
                                "m0",
                                "MetricStat",
                                Map.of(
                                        "Metric",
                                        Map.of(
                                                "Dimensions",
                                                List.of(Map.of("Name", "DeadLetterQueue", "Value", "orders-dlq")),
                                                "MetricName",
                                                "Arrivals",
                                                "Namespace",
                                                "Redrive"),
                                        "Period",
                                        300,
                                        "Stat",
                                        "Sum"),
                                "ReturnData",
                                true)));
        t.hasResourceProperties(
                "AWS::CloudWatch::AnomalyDetector",
                Map.of(
                        "SingleMetricAnomalyDetector",
                        Map.of(
                                "Namespace", "Redrive",
                                "MetricName", "Arrivals",
                                "Stat", "Sum",
                                "Dimensions", List.of(Map.of("Name", "DeadLetterQueue", "Value", "orders-dlq")))));
        Map<String, Map<String, Object>> detectors = t.findResources("AWS::CloudWatch::AnomalyDetector");
        assertThat(detectors).hasSize(1);
        String alarmId = t.findResources("AWS::CloudWatch::Alarm").entrySet().stream()
                .filter(e -> String.valueOf(e.getValue()).contains("shop-orders-dlq-arrivals-above-baseline"))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow();
        assertThat(t.findResources("AWS::CloudWatch::Alarm").get(alarmId).get("DependsOn"))
                .as("the model the alarm's band reads is made before the alarm")
                .isEqualTo(List.of(detectors.keySet().iterator().next()));
    }

    @Test
    void aFailureRecordAlarmsOnlyOnArrivalsSoTheAlarmClearsWithoutADrain() {
        Fixture f = defaults();
        Template t = defaultTemplate();

        assertThat(alarm(t, "shop-sweeper-schedule-dlq-arrival"))
                .containsEntry("Namespace", "AWS/SQS")
                .containsEntry("MetricName", "NumberOfMessagesSent")
                .containsEntry("Statistic", "Sum")
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("Threshold", 1)
                .containsEntry("EvaluationPeriods", 1)
                .containsEntry("TreatMissingData", "notBreaching");
        assertThat(alarms(t).keySet().stream().filter(n -> n.startsWith("shop-sweeper-schedule-dlq")))
                .containsExactly("shop-sweeper-schedule-dlq-arrival");
    }

    @Test
    void aBreakerAlarmsWhenItStaysOpenOverTheMaximumOfTenMinutes() {
        Template t = defaultTemplate();

        Map<String, Object> open = alarm(t, "shop-mail-provider-breaker-open");
        assertThat(open)
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", "BreakerOpenSeconds")
                .containsEntry("Statistic", "Maximum")
                .containsEntry("Period", 600)
                .containsEntry("ComparisonOperator", "GreaterThanThreshold")
                .containsEntry("Threshold", 900)
                .containsEntry("EvaluationPeriods", 1)
                .containsEntry("TreatMissingData", "notBreaching");
        assertThat(open.get("Dimensions")).isEqualTo(List.of(Map.of("Name", "Dependency", "Value", "mail-provider")));
    }

    @Test
    void theSweepersAlarmsReadItsMetricsAndItsErrors() {
        Fixture f = defaults();
        Template t = defaultTemplate();

        assertThat(alarm(t, "shop-oldest-unresolved-quarantine"))
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", "OldestUnresolvedQuarantineAgeSeconds")
                .containsEntry("Statistic", "Maximum")
                .containsEntry("ComparisonOperator", "GreaterThanThreshold")
                .containsEntry("Threshold", 3 * 24 * 3600);
        Map<String, Object> errors = alarm(t, "shop-sweeper-errors");
        assertThat(errors)
                .containsEntry("Namespace", "AWS/Lambda")
                .containsEntry("MetricName", "Errors")
                .containsEntry("Statistic", "Sum")
                .containsEntry("Threshold", 1)
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold");
        assertThat(errors.get("Dimensions"))
                .isEqualTo(List.of(Map.of("Name", "FunctionName", "Value", Map.of("Ref", f.ref(f.sweeper)))));
        Map<String, Object> rate = alarm(t, "shop-replay-success-rate");
        assertThat(rate)
                .doesNotContainKeys("MetricName", "Namespace")
                .containsEntry("ComparisonOperator", "LessThanThreshold")
                .containsEntry("Threshold", 0.9)
                .containsEntry("EvaluationPeriods", 1);
        assertThat(((List<?>) rate.get("Metrics"))
                        .stream().map(m -> (Object) ((Map<?, ?>) m).get("Id")).toList())
                .as("in the order written, so every synth writes the same template")
                .containsExactly("expr_1", "sent", "returned");
        assertThat(String.valueOf(rate.get("Metrics")))
                .contains("IF(sent > 0, (sent - returned) / sent, IF(returned > 0, 0, 1))")
                .contains("MetricName=Replayed", "MetricName=ReplaysReturned", "Period=3600");
    }

    @Test
    void theThresholdsGivenAreTheAlarmsThresholds() {
        Fixture f = new Fixture(d -> d.withSourceOldestMessageAge(Duration.ofMinutes(5))
                .withSourceVisibleMessages(50)
                .withDeadLetterOldestMessageAge(Duration.ofMinutes(30))
                .withDeadLetterVisibleMessages(7)
                .withOldestUnresolvedQuarantine(Duration.ofDays(1))
                .withReplaySuccessRate(0.5, Duration.ofMinutes(30))
                .withBreakerOpen(Duration.ofMinutes(20))
                .withPeriod(Duration.ofMinutes(15), 2));
        Template t = f.template();

        assertThat(alarm(t, "shop-orders-oldest-message-age"))
                .containsEntry("Threshold", 300)
                .containsEntry("Period", 900)
                .containsEntry("EvaluationPeriods", 2)
                .containsEntry("DatapointsToAlarm", 2);
        assertThat(alarm(t, "shop-orders-depth")).containsEntry("Threshold", 50);
        assertThat(alarm(t, "shop-orders-dlq-oldest-message-age")).containsEntry("Threshold", 1800);
        assertThat(alarm(t, "shop-orders-dlq-depth")).containsEntry("Threshold", 7);
        assertThat(alarm(t, "shop-oldest-unresolved-quarantine")).containsEntry("Threshold", 24 * 3600);
        assertThat(alarm(t, "shop-replay-success-rate")).containsEntry("Threshold", 0.5);
        assertThat(String.valueOf(alarm(t, "shop-replay-success-rate").get("Metrics")))
                .contains("Period=1800");
        assertThat(alarm(t, "shop-mail-provider-breaker-open"))
                .as("a period longer than the breaker's ten minutes is the breaker alarm's period")
                .containsEntry("Threshold", 1200)
                .containsEntry("Period", 900);
    }

    @Test
    void everyAlarmNotifiesTheEncryptedTopicWhenItFiresAndWhenItClears() {
        Fixture f = defaults();
        Template t = defaultTemplate();
        String topic = t.findResources("AWS::SNS::Topic").keySet().iterator().next();
        String key = f.ref(f.key);

        assertThat(alarms(t))
                .as("per source queue 2, per DLQ 3, per failure record 1, the sweeper's 5 (quarantine age, replay rate,"
                        + " heartbeat, errors, throttles), the account's concurrency 1, the breaker's 1")
                .hasSize(2 + 3 + 1 + 5 + 1 + 1)
                .allSatisfy((name, alarm) -> {
                    assertThat(alarm.get("AlarmActions")).isEqualTo(List.of(Map.of("Ref", topic)));
                    assertThat(alarm.get("OKActions")).isEqualTo(List.of(Map.of("Ref", topic)));
                });
        t.hasResourceProperties(
                "AWS::SNS::Topic",
                Map.of(
                        "KmsMasterKeyId",
                        Map.of("Fn::GetAtt", List.of(key, "Arn")),
                        "DisplayName",
                        "Redrive alarms (shop)"));
        assertThat(f.monitoring.alarms()).hasSize(13);
    }

    @Test
    void onlyThisAccountsAlarmsNamedWithThePrefixMayPublishAndUseTheKey() {
        Template t = defaultTemplate();
        Map<String, Object> onlyShopAlarms = Map.of(
                "StringEquals",
                Map.of("aws:SourceAccount", Map.of("Ref", "AWS::AccountId")),
                "ArnLike",
                Map.of(
                        "aws:SourceArn",
                        Map.of(
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
                                                ":alarm:shop-*")))));

        t.hasResourceProperties(
                "AWS::SNS::TopicPolicy",
                Map.of(
                        "PolicyDocument",
                        Map.of(
                                "Statement",
                                Match.arrayWith(List.of(Match.objectLike(Map.of(
                                        "Effect",
                                        "Allow",
                                        "Principal",
                                        Map.of("Service", "cloudwatch.amazonaws.com"),
                                        "Action",
                                        "sns:Publish",
                                        "Condition",
                                        onlyShopAlarms)))))));
        t.hasResourceProperties(
                "AWS::KMS::Key",
                Map.of(
                        "KeyPolicy",
                        Map.of(
                                "Statement",
                                Match.arrayWith(List.of(Match.objectLike(Map.of(
                                        "Principal", Map.of("Service", "cloudwatch.amazonaws.com"),
                                        "Action", List.of("kms:Decrypt", "kms:GenerateDataKey*"),
                                        "Condition", onlyShopAlarms)))))));
    }

    @Test
    void theDashboardShowsEveryAlarmTheQueuesTheConsumersAndTheBreakersWithTheirHistory() {
        Fixture f = defaults();
        Template t = defaultTemplate();
        String body = dashboardBody(t);

        assertThat(body).startsWith("{\"widgets\":[{\"type\":\"alarm\",\"width\":24,\"height\":3,\"x\":0,\"y\":0");
        for (String alarm : t.findResources("AWS::CloudWatch::Alarm").keySet()) {
            assertThat(body).as("the alarm row lists %s", alarm).contains("<" + alarm + ".Arn>");
        }
        assertThat(body)
                .contains("<" + f.ref(f.source) + ".QueueName>", "<" + f.ref(f.dlq) + ".QueueName>")
                .contains("\"label\":\"orders\"", "\"label\":\"orders-dlq\"")
                .contains("{Redrive,Consumer,FailureClass} MetricName=\\\"DeadLettered")
                .contains("{Redrive,FailureClass} MetricName=\\\"Quarantined")
                .contains("Replayed", "ReplayFailed", "AlreadyApplied", "Archived")
                .contains("\"Processed\",\"Consumer\",\"receipts\"", "\"Duplicates\",\"Consumer\",\"receipts\"")
                .contains("\"BreakerCallsRefused\",\"Dependency\",\"mail-provider\"")
                .contains("\"BreakerOpenSeconds\",\"Dependency\",\"mail-provider\"")
                .contains("{Redrive,Dependency,State} MetricName=\\\"BreakerTransitions")
                .contains("\"type\":\"log\"", "SOURCE '/aws/lambda/receipts'")
                .contains("parse @message \\\"circuit breaker of *: * -> * (token *): *\\\"");
    }

    @Test
    void nothingOfAnExampleIsInIt() {
        Template t = defaultTemplate();
        String everything = String.valueOf(t.toJSON()).toLowerCase(java.util.Locale.ROOT);

        assertThat(everything).doesNotContain("outbox", "payment", "checkout", "orderplaced", "reconciliation");
    }

    @Test
    void anAppsAlarmNotifiesTheSameTopicAndIsListedInTheDashboardsAlarmRow() {
        Fixture f = new Fixture();
        Metric rejected = Metric.Builder.create()
                .namespace("Shop")
                .metricName("OrdersRejected")
                .statistic("Sum")
                .build();

        var added = f.monitoring.addAlarm(
                "shop-orders-rejected",
                rejected,
                CreateAlarmOptions.builder()
                        .threshold(1)
                        .evaluationPeriods(2)
                        .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                        .alarmDescription("Orders are being rejected")
                        .build());
        f.monitoring.addAlarm(
                "shop-orders-late",
                rejected,
                CreateAlarmOptions.builder()
                        .threshold(5)
                        .evaluationPeriods(3)
                        .datapointsToAlarm(2)
                        .treatMissingData(TreatMissingData.BREACHING)
                        .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
                        .build());
        Template t = f.template();

        String topic = t.findResources("AWS::SNS::Topic").keySet().iterator().next();
        assertThat(alarm(t, "shop-orders-rejected"))
                .containsEntry("Namespace", "Shop")
                .containsEntry("MetricName", "OrdersRejected")
                .containsEntry("Threshold", 1)
                .containsEntry("EvaluationPeriods", 2)
                .as("by default every evaluation period must breach, and missing data does not")
                .containsEntry("DatapointsToAlarm", 2)
                .containsEntry("TreatMissingData", "notBreaching")
                .containsEntry("AlarmDescription", "Orders are being rejected")
                .containsEntry("AlarmActions", List.of(Map.of("Ref", topic)))
                .containsEntry("OKActions", List.of(Map.of("Ref", topic)));
        assertThat(alarm(t, "shop-orders-late"))
                .containsEntry("DatapointsToAlarm", 2)
                .containsEntry("TreatMissingData", "breaching");
        String addedId = f.ref(added);
        assertThat(addedId).startsWith("Monitoringshopordersrejected");
        assertThat(dashboardBody(t))
                .as("added after the dashboard was made, and still in its alarm row")
                .contains("<" + addedId + ".Arn>");
        assertThat(f.monitoring.alarms()).hasSize(15).contains(added);
    }

    @Test
    void anAppsRowGoesUnderTheDashboardsRows() {
        Fixture f = new Fixture();

        f.monitoring.addDashboardRow(
                TextWidget.Builder.create()
                        .markdown("# Shop")
                        .width(12)
                        .height(2)
                        .build(),
                TextWidget.Builder.create()
                        .markdown("# Orders")
                        .width(12)
                        .height(2)
                        .build());
        String body = dashboardBody(f.template());

        assertThat(body).contains("\"markdown\":\"# Shop\"", "\"markdown\":\"# Orders\"");
        assertThat(body.indexOf("# Shop"))
                .as("after the breakers' history, the last of the platform's rows")
                .isGreaterThan(body.indexOf("Circuit breakers: history"));
        assertThat(body).contains("\"type\":\"text\",\"width\":12,\"height\":2,\"x\":12,\"y\":33");
    }

    @Test
    void anAlarmNotNamedWithThePrefixIsRefusedSinceTheTopicWouldRefuseIt() {
        Fixture f = new Fixture();
        Metric metric = Metric.Builder.create()
                .namespace("Shop")
                .metricName("OrdersRejected")
                .build();
        CreateAlarmOptions options =
                CreateAlarmOptions.builder().threshold(1).evaluationPeriods(1).build();

        assertThatThrownBy(() -> f.monitoring.addAlarm("orders-rejected", metric, options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("alarm orders-rejected must start with shop-");
        assertThatThrownBy(() -> f.monitoring.addAlarm(
                        "shop-orders-rejected",
                        metric,
                        CreateAlarmOptions.builder()
                                .threshold(1)
                                .evaluationPeriods(1)
                                .alarmName("other")
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is named other by its options");
    }

    @Test
    void propsRefuseWhatWouldMakeBadOrCollidingAlarmsNamingTheSetting() {
        Fixture f = defaults();
        List<MonitoredQueue> twice = new ArrayList<>(List.of(
                new MonitoredQueue("orders", f.source, MonitoredQueue.Kind.SOURCE),
                new MonitoredQueue("orders", f.dlq, MonitoredQueue.Kind.DEAD_LETTER)));

        assertThatThrownBy(() -> props(f, "shop prod", List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("monitoring prefix 'shop prod'");
        assertThatThrownBy(() -> props(f, "shop", twice, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("monitoring queues: orders is given twice");
        assertThatThrownBy(() -> props(f, "shop", List.of(), List.of("mail", "mail")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("monitoring breakers: mail is given twice");
        assertThatThrownBy(() -> props(f, "shop", List.of(), List.of("mail provider")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("monitoring breakers: 'mail provider'");
    }

    /** Issue 40, point 7: a sweeper that stops running emits nothing, so missing data must breach. */
    @Test
    void theSweepersHeartbeatBreachesOnMissingDataAndItsFunctionAlarmsOnErrorsAndThrottles() {
        Fixture f = new Fixture(d -> d.withSweeperHeartbeat(Duration.ofMinutes(20)));
        Template t = f.template();

        assertThat(alarm(t, "shop-sweeper-heartbeat"))
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", "Replayed")
                .containsEntry("Statistic", "SampleCount")
                .containsEntry("Period", 1200)
                .containsEntry("ComparisonOperator", "LessThanThreshold")
                .containsEntry("Threshold", 1)
                .containsEntry("TreatMissingData", "breaching");
        assertThat(alarm(t, "shop-sweeper-throttles"))
                .containsEntry("Namespace", "AWS/Lambda")
                .containsEntry("MetricName", "Throttles")
                .containsEntry("TreatMissingData", "notBreaching")
                .containsEntry(
                        "Dimensions",
                        List.of(Map.of("Name", "FunctionName", "Value", Map.of("Ref", f.ref(f.sweeper)))));
        assertThat(alarm(t, "shop-oldest-unresolved-quarantine"))
                .as("the sweeper reports it each run: missing keeps the state, the heartbeat pages")
                .containsEntry("TreatMissingData", "ignore");
        assertThat(alarm(t, "shop-replay-success-rate")).containsEntry("TreatMissingData", "ignore");
    }

    @Test
    void furtherFunctionsTablesAndIndexesAndTheAccountsConcurrencyAlarm() {
        Fixture f = new Fixture();
        Table table = Table.Builder.create(f.stack, "Ledger")
                .partitionKey(Attribute.builder()
                        .name("pk")
                        .type(AttributeType.STRING)
                        .build())
                .build();
        Monitoring monitoring = new Monitoring(
                f.stack,
                "More",
                new MonitoringProps(
                        "team",
                        f.key,
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of("/aws/lambda/api"),
                        f.sweeper,
                        AlarmThresholds.DEFAULT
                                .withFunctionAlarms(2, 3)
                                .withTableThrottles(4)
                                .withAccountConcurrency(50),
                        List.of(new MonitoredFunction("api", f.sweeper)),
                        List.of(new MonitoredTable("ledger", table, List.of("byDay"))),
                        AlarmNotifications.NONE,
                        "https://runbooks.example.org/redrive.md"));
        Template t = f.template();

        assertThat(alarm(t, "team-api-errors"))
                .containsEntry("MetricName", "Errors")
                .containsEntry("Threshold", 2);
        assertThat(alarm(t, "team-api-throttles"))
                .containsEntry("MetricName", "Throttles")
                .containsEntry("Threshold", 3);
        String tableRef = f.ref(table);
        Map<String, Object> tableThrottles = alarm(t, "team-ledger-table-throttles");
        assertThat(tableThrottles)
                .containsEntry("Threshold", 4)
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("TreatMissingData", "notBreaching");
        assertThat(String.valueOf(tableThrottles.get("Metrics")))
                .contains("FILL(reads, 0) + FILL(writes, 0)", "ReadThrottleEvents", "WriteThrottleEvents")
                .contains("Name=TableName, Value={Ref=" + tableRef + "}")
                .doesNotContain("GlobalSecondaryIndexName");
        assertThat(String.valueOf(alarm(t, "team-ledger-byDay-index-throttles").get("Metrics")))
                .contains("Name=GlobalSecondaryIndexName, Value=byDay", "Name=TableName, Value={Ref=" + tableRef + "}");
        assertThat(alarm(t, "team-account-concurrency"))
                .containsEntry("Namespace", "AWS/Lambda")
                .containsEntry("MetricName", "ClaimedAccountConcurrency")
                .containsEntry("Statistic", "Maximum")
                .containsEntry("Threshold", 50)
                .doesNotContainKey("Dimensions");
        assertThat(monitoring.alarms())
                .allSatisfy(a -> assertThat(String.valueOf(
                                alarms(t).get(a.getNode().getId()).get("AlarmDescription")))
                        .contains(" Runbook: https://runbooks.example.org/redrive.md#"));
    }

    @Test
    void everyPlatformAlarmSaysWhatItMeansAndLinksItsRunbookSection() {
        Template t = defaultTemplate();
        Pattern link = Pattern.compile("\\. Runbook: docs/runbook\\.md#[a-z-]+$");

        assertThat(alarms(t))
                .hasSize(13)
                .allSatisfy((name, a) -> assertThat(String.valueOf(a.get("AlarmDescription")))
                        .as(name)
                        .containsPattern(link));
        assertThat(String.valueOf(alarm(t, "shop-sweeper-schedule-dlq-arrival").get("AlarmDescription")))
                .as("a failure record given without its meaning (the builder gives the sweeper's schedule DLQ its own)")
                .startsWith(
                        "A failure was recorded in shop-sweeper-schedule-dlq (a run of a schedule or an asynchronous"
                                + " invocation failed). shop-sweeper-schedule-dlq holds the details")
                .endsWith("#failure-record-arrival");
    }

    @Test
    void subscribersAreAttachedToTheTopicAndAnExistingTopicCanBeGiven() {
        Fixture f = new Fixture();
        Monitoring own = new Monitoring(
                f.stack,
                "Own",
                props(
                        f,
                        "own",
                        AlarmNotifications.subscribers(
                                List.of("oncall@example.org"), List.of("https://pager.example.org/hook"))));
        ITopic existing = Topic.fromTopicArn(f.stack, "Existing", "arn:aws:sns:eu-west-1:111122223333:pager");
        Monitoring onExisting = new Monitoring(
                f.stack,
                "OnExisting",
                props(
                        f,
                        "ext",
                        AlarmNotifications.subscribers(List.of("team@example.org"), List.of())
                                .onTopic(existing)));
        Template t = f.template();

        String ownTopic = f.ref((Construct) own.alarmTopic());
        t.hasResourceProperties(
                "AWS::SNS::Subscription",
                Map.of("Protocol", "email", "Endpoint", "oncall@example.org", "TopicArn", Map.of("Ref", ownTopic)));
        t.hasResourceProperties(
                "AWS::SNS::Subscription",
                Map.of(
                        "Protocol",
                        "https",
                        "Endpoint",
                        "https://pager.example.org/hook",
                        "TopicArn",
                        Map.of("Ref", ownTopic)));
        t.hasResourceProperties(
                "AWS::SNS::Subscription",
                Map.of(
                        "Protocol",
                        "email",
                        "Endpoint",
                        "team@example.org",
                        "TopicArn",
                        "arn:aws:sns:eu-west-1:111122223333:pager"));
        assertThat(onExisting.alarmTopic()).isSameAs(existing);
        assertThat(alarms(t).get("ext-sweeper-errors").get("AlarmActions"))
                .isEqualTo(List.of("arn:aws:sns:eu-west-1:111122223333:pager"));
        assertThat(t.findResources("AWS::SNS::Topic"))
                .as("the fixture's and Own's; none for the existing")
                .hasSize(2);
        assertThatThrownBy(() -> AlarmNotifications.subscribers(List.of("oncall"), List.of()))
                .hasMessageContaining("alarm email 'oncall' is not an email address");
        assertThatThrownBy(() -> AlarmNotifications.subscribers(List.of(), List.of("http://pager.example.org")))
                .hasMessageContaining("alarm endpoint 'http://pager.example.org' is not an https:// URL");
    }

    @Test
    void anAlarmDescriptionLongerThanCloudFormationTakesIsRefused() {
        Fixture f = new Fixture();
        Metric metric =
                Metric.Builder.create().namespace("Shop").metricName("X").build();

        assertThatThrownBy(() -> f.monitoring.addAlarm(
                        "shop-x",
                        metric,
                        CreateAlarmOptions.builder()
                                .threshold(1)
                                .evaluationPeriods(1)
                                .alarmDescription("x".repeat(1025))
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "alarm shop-x's description has 1025 characters; CloudFormation takes at most 1024");
    }

    @Test
    void propsRefuseAFunctionNamedAsTheSweeperAndARunbookWithAnAnchor() {
        Fixture f = defaults();
        assertThatThrownBy(() -> new MonitoringProps(
                        "shop",
                        f.key,
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        f.sweeper,
                        AlarmThresholds.DEFAULT,
                        List.of(new MonitoredFunction("sweeper", f.sweeper)),
                        List.of(),
                        AlarmNotifications.NONE,
                        "docs/runbook.md"))
                .hasMessageContaining("monitoring functions: sweeper is given twice or is the sweeper's name");
        assertThatThrownBy(() -> new MonitoringProps(
                        "shop",
                        f.key,
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        f.sweeper,
                        AlarmThresholds.DEFAULT,
                        List.of(),
                        List.of(),
                        AlarmNotifications.NONE,
                        "docs/runbook.md#top"))
                .hasMessageContaining("monitoring runbook 'docs/runbook.md#top'");
    }

    private static MonitoringProps props(Fixture f, String prefix, AlarmNotifications notifications) {
        return new MonitoringProps(
                prefix,
                f.key,
                List.of(),
                List.of(),
                List.of(),
                List.of("/aws/lambda/receipts"),
                f.sweeper,
                AlarmThresholds.DEFAULT,
                List.of(),
                List.of(),
                notifications,
                MonitoringProps.DEFAULT_RUNBOOK);
    }

    private static MonitoringProps props(Fixture f, String prefix, List<MonitoredQueue> queues, List<String> breakers) {
        return new MonitoringProps(
                prefix, f.key, queues, List.of(), breakers, List.of(), f.sweeper, AlarmThresholds.DEFAULT);
    }

    /**
     * The alarms and the dashboard read only metrics some Redrive function emits: every metric of namespace
     * {@code Redrive} named in the template is one of {@link Metrics#EMITTED}.
     */
    @Test
    void everyRedriveMetricAlarmedOrChartedIsOneAFunctionEmits() {
        Template t = defaultTemplate();
        String everything = String.valueOf(t.toJSON()) + dashboardBody(t);
        Set<String> named = new TreeSet<>();
        Matcher alarmed = Pattern.compile(
                        "Namespace=Redrive, MetricName=([A-Za-z]+)|MetricName=([A-Za-z]+), " + "Namespace=Redrive")
                .matcher(everything);
        while (alarmed.find()) {
            named.add(alarmed.group(1) != null ? alarmed.group(1) : alarmed.group(2));
        }
        Matcher charted = Pattern.compile("\\[\"Redrive\",\"([^\"]+)\"|MetricName=\\\\?\"([A-Za-z]+)")
                .matcher(everything);
        while (charted.find()) {
            named.add(charted.group(1) != null ? charted.group(1) : charted.group(2));
        }

        assertThat(named)
                .as(
                        "the plain alarms, the metric-math inputs, the charted metrics and the SEARCH expressions are found")
                .contains(
                        Metrics.OLDEST_UNRESOLVED_QUARANTINE_AGE,
                        Metrics.REPLAYED,
                        Metrics.REPLAYS_RETURNED,
                        Metrics.BREAKER_OPEN_SECONDS,
                        Metrics.PROCESSED,
                        Metrics.DEAD_LETTERED,
                        Metrics.QUARANTINED);
        assertThat(Metrics.EMITTED).containsAll(named);
    }
}
