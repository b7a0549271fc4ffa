package dev.redrive.infra.monitoring;

import dev.redrive.cdk.monitoring.Monitoring;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.core.names.RedriveNames.Metrics;
import dev.redrive.infra.checkout.CheckoutProducer;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.CreateAlarmOptions;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;

/**
 * The checkout producer's alarms and dashboard row, added to the platform's {@link Monitoring} through its extension
 * point (its topic, its dashboard): an outbox event unpublished for longer than
 * {@link ProducerAlarmThresholds#oldestUnpublishedOutbox()} (the relay and its sweep both failed it); the relay falling
 * behind its stream ({@code IteratorAge} over {@link ProducerAlarmThresholds#relayIteratorAge()}); the payment provider
 * not answering checkouts; the reconciliation unable to end abandoned checkouts (their voids unconfirmed) for the
 * platform's evaluation periods. Each description ends in its section of the runbook ({@code docs/runbook.md}, "The
 * checkout example's alarms"); the producer's functions' errors and throttles and its orders table's throttles are
 * the platform's alarms, from the props. The producer's failure records (the relay's failures, the outbox and reconciliation
 * schedules' DLQs) are queues of the platform's props. Not a construct of its own: the alarms are made in the
 * {@code Monitoring} construct, beside the platform's.
 */
public final class ProducerMonitoring {

    private ProducerMonitoring() {}

    /** Adds the producer's alarms and its dashboard row to {@code monitoring}. */
    public static void addTo(Monitoring monitoring, CheckoutProducer producer, ProducerAlarmThresholds thresholds) {
        String prefix = monitoring.prefix();
        int evaluationPeriods = monitoring.thresholds().evaluationPeriods();
        Duration period = Duration.seconds(monitoring.thresholds().period().toSeconds());
        monitoring.addAlarm(
                prefix + "-outbox-oldest-unpublished",
                custom(Metrics.OLDEST_UNPUBLISHED_OUTBOX_AGE, "Maximum", period),
                options(
                        thresholds.oldestUnpublishedOutbox().toSeconds(),
                        ComparisonOperator.GREATER_THAN_THRESHOLD,
                        1,
                        // Reported by the outbox sweep's runs: missing means the sweep stopped, not that the outbox
                        // is empty. Keep the state; the sweep's schedule DLQ and errors alarms report the stop.
                        TreatMissingData.IGNORE,
                        "An OrderPlaced event has waited in the outbox for more than "
                                + thresholds.oldestUnpublishedOutbox().toMinutes() + " min: the relay and the outbox "
                                + "sweep could not publish it. Its consumers have not seen the order yet; see the "
                                + "relay's log and its failure queue.",
                        monitoring.runbookLink("outbox-oldest-unpublished")));
        monitoring.addAlarm(
                prefix + "-outbox-relay-iterator-age",
                relayIteratorAge(producer, period, null),
                options(
                        thresholds.relayIteratorAge().toMillis(),
                        ComparisonOperator.GREATER_THAN_THRESHOLD,
                        1,
                        // Reported only while the stream has records for the relay: missing is no new order.
                        TreatMissingData.NOT_BREACHING,
                        "The outbox relay is behind the orders table's stream by more than "
                                + thresholds.relayIteratorAge().toMinutes()
                                + " min: orders are reaching their consumers late.",
                        monitoring.runbookLink("outbox-relay-iterator-age")));
        monitoring.addAlarm(
                prefix + "-payment-provider-unavailable",
                custom(CheckoutNames.Metrics.PAYMENT_PROVIDER_UNAVAILABLE, "Sum", period),
                options(
                        thresholds.paymentProviderUnavailable(),
                        ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                        1,
                        // Reported only when a checkout got no answer: missing is none.
                        TreatMissingData.NOT_BREACHING,
                        "At least " + thresholds.paymentProviderUnavailable() + " checkouts in a period were answered"
                                + " 503 because the payment provider does not answer: clients retry with their keys;"
                                + " abandoned ones are voided by the reconciliation.",
                        monitoring.runbookLink("payment-provider-unavailable")));
        monitoring.addAlarm(
                prefix + "-checkout-attempts-not-ended",
                custom(CheckoutNames.Metrics.CHECKOUT_ATTEMPTS_NOT_ENDED, "Sum", period),
                options(
                        1,
                        ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                        evaluationPeriods,
                        // Reported by each reconciliation run that left some: missing is none left (a stopped
                        // reconciliation is its schedule DLQ's and errors alarms' to report).
                        TreatMissingData.NOT_BREACHING,
                        "The checkout reconciliation could not end abandoned checkouts for " + evaluationPeriods
                                + " periods in a row: the payment provider does not confirm their voids, so their "
                                + "authorizations may stand and their stock stays held. No client can place them (they "
                                + "answer 410); each run retries them first. See the reconciliation's log for the "
                                + "provider's answer.",
                        monitoring.runbookLink("checkout-attempts-not-ended")));
        monitoring.addDashboardRow(
                graph(
                        "Checkout outbox: oldest unpublished (s), publish lag commit to queue (ms, p99)",
                        List.of(
                                labelled(Metrics.OLDEST_UNPUBLISHED_OUTBOX_AGE, "Maximum", period),
                                labelled(Metrics.OUTBOX_PUBLISH_LAG, "p99", period),
                                labelled(Metrics.OUTBOX_REPUBLISHED, "Sum", period))),
                graph(
                        "Checkout: orders placed, payment provider unavailable, relay iterator age (ms)",
                        List.of(
                                labelled(CheckoutNames.Metrics.ORDERS_PLACED, "Sum", period),
                                labelled(CheckoutNames.Metrics.PAYMENT_PROVIDER_UNAVAILABLE, "Sum", period),
                                relayIteratorAge(producer, period, "relay IteratorAge"))));
    }

    private static IMetric relayIteratorAge(CheckoutProducer producer, Duration period, String label) {
        return producer.relay()
                .metric(
                        "IteratorAge",
                        MetricOptions.builder()
                                .statistic("Maximum")
                                .period(period)
                                .label(label)
                                .build());
    }

    private static CreateAlarmOptions options(
            Number threshold,
            ComparisonOperator comparison,
            int evaluationPeriods,
            TreatMissingData missingData,
            String meaning,
            String runbook) {
        return CreateAlarmOptions.builder()
                .threshold(threshold)
                .comparisonOperator(comparison)
                .evaluationPeriods(evaluationPeriods)
                .treatMissingData(missingData)
                .alarmDescription(meaning + " Runbook: " + runbook)
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

    private static Metric labelled(String name, String statistic, Duration period) {
        return Metric.Builder.create()
                .namespace(Metrics.NAMESPACE)
                .metricName(name)
                .statistic(statistic)
                .period(period)
                .label(name + " " + statistic)
                .build();
    }

    private static GraphWidget graph(String title, List<IMetric> metrics) {
        return GraphWidget.Builder.create()
                .title(title)
                .left(metrics)
                .width(12)
                .height(6)
                .build();
    }
}
