package dev.redrive.functions.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.names.RedriveNames.Metrics;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.functions.checkout.CheckoutProbe;
import dev.redrive.functions.outbox.OutboxMetrics;
import dev.redrive.lambda.ConsumerMetrics;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.sweeper.SweeperMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The functions emit exactly the metrics {@link Metrics} declares: the consumers {@link Metrics#CONSUMER_EMITTED}, the
 * sweeper {@link Metrics#SWEEPER_EMITTED}, all in namespace {@value Metrics#NAMESPACE}. The IaC's {@code
 * MetricNamesTest} checks its alarms and dashboard against the same sets, so an alarm on a metric nobody emits fails
 * one of the two.
 */
class EmittedMetricNamesTest {

    private final ObjectMapper json = new ObjectMapper();
    private final List<String> lines = new ArrayList<>();

    @Test
    void theConsumersEmitEveryDeclaredConsumerMetricAndNoOther() throws Exception {
        ConsumerMetrics metrics = new ConsumerMetrics(new EmfOutput(lines::add));
        Instant now = Instant.parse("2026-11-29T10:00:00Z");
        Classification permanent = Classification.of(FailureClass.PERMANENT, "Rule", "r");
        metrics.effectLatency("email", Duration.ofMillis(40));
        metrics.record(
                "email",
                report(
                        new MessageOutcome.Applied("k1", 1, null),
                        new MessageOutcome.Duplicate("k2"),
                        new MessageOutcome.Deferred("k3", now, 5),
                        new MessageOutcome.TimedOut("k4"),
                        new MessageOutcome.Superseded("k5", 2),
                        new MessageOutcome.RetryLater("k6", Classification.of(FailureClass.TRANSIENT, "T", "t"), 3),
                        new MessageOutcome.DeadLettered("k7", new FailureRecord(permanent, 1, now, now, "q")),
                        new MessageOutcome.SkippedAfterGroupFailure("g1", "m0", 4),
                        new MessageOutcome.RefusedByBreaker("k8", "mail", 30)));
        metrics.breakers()
                .transitioned(
                        "mail",
                        new BreakerTransition(
                                1, now, BreakerState.Status.CLOSED, BreakerState.Status.OPEN, "5 failures in a row"));
        metrics.breakers().refused("mail", Duration.ofSeconds(12));
        metrics.breakers().probed("mail", true);
        metrics.breakers().probed("mail", false);
        metrics.breakers().storeFailed("mail", new IllegalStateException("control table unreachable"));

        metrics.flush("email");

        assertThat(emitted()).isEqualTo(new TreeSet<>(Metrics.CONSUMER_EMITTED));
    }

    @Test
    void theSweeperEmitsEveryDeclaredSweeperMetricAndNoOther() throws Exception {
        SweeperMetrics metrics = new SweeperMetrics(new EmfOutput(lines::add));
        SweepReport report = new SweepReport(new Route("email", "orders", "orders-dlq"));

        metrics.export(List.of(report), Map.of(FailureClass.TRANSIENT, new ReplayStats.Totals(10, 1)));
        metrics.exportQueues(
                List.of(new SweeperMetrics.QueueFigures("orders-dlq", 3, report, Map.of("QUARANTINED", 1L))));

        assertThat(emitted()).isEqualTo(new TreeSet<>(Metrics.SWEEPER_EMITTED));
    }

    @Test
    void theOutboxRelayAndItsSweepEmitEveryDeclaredOutboxMetricAndNoOther() throws Exception {
        OutboxMetrics metrics = new OutboxMetrics(new EmfOutput(lines::add));

        metrics.relayed(2, 1, new long[] {40, 75});
        metrics.swept(1, 0, 360);

        assertThat(emitted()).isEqualTo(new TreeSet<>(Metrics.OUTBOX_EMITTED));
        JsonNode sweep = json.readTree(lines.get(1));
        assertThat(sweep.get(Metrics.OLDEST_UNPUBLISHED_OUTBOX_AGE).asLong()).isEqualTo(360);
        assertThat(json.readTree(lines.get(0)).get(Metrics.OUTBOX_PUBLISH_LAG))
                .as("one value per event")
                .hasSize(2);
    }

    @Test
    void theCheckoutEmitsEveryDeclaredCheckoutMetricAndNoOther() throws Exception {
        CheckoutProbe.answer(new EmfOutput(lines::add));

        assertThat(emitted()).isEqualTo(new TreeSet<>(CheckoutNames.Metrics.CHECKOUT_EMITTED));
    }

    /** The metric names of every EMF document written, after checking each is in the Redrive namespace. */
    private Set<String> emitted() throws Exception {
        Set<String> names = new TreeSet<>();
        for (String line : lines) {
            for (JsonNode directive : json.readTree(line).at("/_aws/CloudWatchMetrics")) {
                assertThat(directive.get("Namespace").asText()).isEqualTo(Metrics.NAMESPACE);
                directive.get("Metrics").forEach(m -> names.add(m.get("Name").asText()));
            }
        }
        return names;
    }

    private static BatchReport report(MessageOutcome... outcomes) {
        List<BatchReport.Entry> entries = new ArrayList<>();
        for (int i = 0; i < outcomes.length; i++) {
            entries.add(new BatchReport.Entry(
                    new IncomingMessage("m" + i, "r", "{}", Map.of(), 1, "q", null), outcomes[i]));
        }
        // The last message's retry delay was not taken by the queue (ChangeMessageVisibility failed).
        return new BatchReport(entries, List.of(), List.of("m" + (outcomes.length - 1)));
    }
}
