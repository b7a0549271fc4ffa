package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checkout producer's own alarms and dashboard row, added to the platform's monitoring through its extension point
 * ({@code ProducerMonitoring}): on the platform's topic, in the platform's dashboard, and gone with the producer.
 */
class ProducerMonitoringTest {

    private static final List<String> PRODUCER_ALARMS = List.of(
            "redrive-outbox-oldest-unpublished",
            "redrive-outbox-relay-iterator-age",
            "redrive-payment-provider-unavailable",
            "redrive-checkout-attempts-not-ended");

    private final TemplateView t = Synth.defaults();

    private Map<String, Object> alarm(TemplateView view, String name) {
        return view.resources("AWS::CloudWatch::Alarm").values().stream()
                .map(a -> map(a, "Properties"))
                .filter(p -> name.equals(p.get("AlarmName")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no alarm " + name));
    }

    @Test
    void anOutboxEventUnpublishedForFifteenMinutesAlarms() {
        assertThat(alarm(t, "redrive-outbox-oldest-unpublished"))
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", "OldestUnpublishedOutboxAgeSeconds")
                .containsEntry("Statistic", "Maximum")
                .containsEntry("Period", 300)
                .containsEntry("ComparisonOperator", "GreaterThanThreshold")
                .containsEntry("Threshold", 900)
                .containsEntry("EvaluationPeriods", 1)
                .as("issue 40: reported by the outbox sweep's runs, missing means the sweep stopped: keep the state")
                .containsEntry("TreatMissingData", "ignore");
    }

    @Test
    void theRelayBehindItsStreamByFiveMinutesAlarms() {
        Map<String, Object> behind = alarm(t, "redrive-outbox-relay-iterator-age");
        assertThat(behind)
                .containsEntry("Namespace", "AWS/Lambda")
                .containsEntry("MetricName", "IteratorAge")
                .containsEntry("Statistic", "Maximum")
                .containsEntry("ComparisonOperator", "GreaterThanThreshold")
                .containsEntry("Threshold", 300_000)
                .containsEntry("EvaluationPeriods", 1);
        assertThat(behind.get("Dimensions"))
                .isEqualTo(List.of(Map.of("Name", "FunctionName", "Value", Map.of("Ref", t.function("outbox-relay")))));
    }

    @Test
    void fiveCheckoutsAnswered503InAPeriodAlarm() {
        assertThat(alarm(t, "redrive-payment-provider-unavailable"))
                .containsEntry("Namespace", "Redrive")
                .containsEntry("MetricName", "PaymentProviderUnavailable")
                .containsEntry("Statistic", "Sum")
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("Threshold", 5)
                .containsEntry("EvaluationPeriods", 1);
    }

    @Test
    void theProducersAlarmsNotifyThePlatformsTopicAndAreInThePlatformsDashboard() {
        String topic = t.resources("AWS::SNS::Topic").keySet().iterator().next();
        String body = String.valueOf(map(
                        t.resources("AWS::CloudWatch::Dashboard")
                                .values()
                                .iterator()
                                .next(),
                        "Properties")
                .get("DashboardBody"));

        for (String name : PRODUCER_ALARMS) {
            Map<String, Object> alarm = alarm(t, name);
            assertThat(alarm.get("AlarmActions")).isEqualTo(List.of(Map.of("Ref", topic)));
            assertThat(alarm.get("OKActions")).isEqualTo(List.of(Map.of("Ref", topic)));
            String logicalId = t.resources("AWS::CloudWatch::Alarm").entrySet().stream()
                    .filter(e -> name.equals(map(e.getValue(), "Properties").get("AlarmName")))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElseThrow();
            assertThat(logicalId)
                    .as("made in the platform's Monitoring construct")
                    .startsWith("Monitoring");
            assertThat(body).as("the alarm row lists %s", name).contains(logicalId);
        }
        assertThat(body)
                .contains("Checkout outbox: oldest unpublished (s), publish lag commit to queue (ms, p99)")
                .contains("Checkout: orders placed, payment provider unavailable, relay iterator age (ms)")
                .contains("OutboxPublishLagMs p99", "relay IteratorAge");
    }

    @Test
    void withoutTheProducerNoneOfItsAlarmsNorItsRow() {
        TemplateView without = Synth.template(Map.of("checkoutProducer", "false"));

        List<String> names = without.resources("AWS::CloudWatch::Alarm").values().stream()
                .map(a -> String.valueOf(map(a, "Properties").get("AlarmName")))
                .toList();
        assertThat(names).doesNotContainAnyElementsOf(PRODUCER_ALARMS).contains("redrive-sweeper-errors");
        assertThat(names.stream().filter(n -> n.contains("outbox") || n.contains("reconciliation")))
                .isEmpty();
        String body = String.valueOf(map(
                        without.resources("AWS::CloudWatch::Dashboard")
                                .values()
                                .iterator()
                                .next(),
                        "Properties")
                .get("DashboardBody"));
        assertThat(body).doesNotContain("Checkout");
    }
}
