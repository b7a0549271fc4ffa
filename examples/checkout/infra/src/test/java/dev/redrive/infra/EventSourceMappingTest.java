package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventSourceMappingTest {

    private final TemplateView t = Synth.defaults();

    @Test
    void eachConsumerFunctionIsTriggeredByItsOwnQueueWithPartialBatchResponses() {
        Map<String, String> queueByHandler = Map.of(
                "confirmation-email", t.queue("redrive-confirmation-email"),
                "revenue-analytics", t.queue("redrive-revenue-analytics"));
        var mappings = t.resources("AWS::Lambda::EventSourceMapping").values().stream()
                .map(r -> map(r, "Properties"))
                .filter(m -> String.valueOf(m.get("EventSourceArn")).contains("Queue"))
                .toList();

        assertThat(mappings)
                .as("one per consumer (the relay's, on the orders stream, is the producer's)")
                .hasSize(2);
        queueByHandler.forEach((handler, queue) -> {
            Map<String, Object> mapping = mappings.stream()
                    .filter(m -> t.invokedName(t.function(handler)).equals(m.get("FunctionName")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no mapping for " + handler));
            assertThat(mapping.get("EventSourceArn")).isEqualTo(Map.of("Fn::GetAtt", List.of(queue, "Arn")));
            assertThat(mapping.get("FunctionResponseTypes")).isEqualTo(List.of("ReportBatchItemFailures"));
            assertThat(mapping.get("BatchSize")).isEqualTo(10);
            assertThat(mapping.get("MaximumBatchingWindowInSeconds")).isEqualTo(0);
            assertThat(map(mapping, "ScalingConfig").get("MaximumConcurrency")).isEqualTo(5);
        });
    }

    @Test
    void consumersGetTheirConfigurationAsRedriveEnvironmentVariables() {
        Map<String, Object> email = t.environment(t.function("confirmation-email"));

        assertThat(email)
                .containsEntry("REDRIVE_BACKOFF_BASE", "PT2S")
                .containsEntry("REDRIVE_BACKOFF_MULTIPLIER", "2.0")
                .containsEntry("REDRIVE_BACKOFF_MAX_DELAY", "PT15M")
                .containsEntry("REDRIVE_BATCH_CONCURRENCY", "10")
                .containsEntry("REDRIVE_BATCH_MAX_RECEIVE_COUNT", "10")
                .containsEntry("REDRIVE_CLAIMS_TABLE", Map.of("Ref", t.table("ClaimsTable")))
                .containsEntry(
                        "REDRIVE_DEAD_LETTERS_QUEUE_URL", Map.of("Ref", t.queue("redrive-confirmation-email-dlq")))
                .containsKey("REDRIVE_CHECKOUT_EMAIL_OUTBOX_BUCKET")
                .doesNotContainKey("REDRIVE_CHECKOUT_REVENUE_TABLE");
        assertThat(t.environment(t.function("revenue-analytics")))
                .containsEntry("REDRIVE_CHECKOUT_REVENUE_TABLE", Map.of("Ref", t.table("RevenueTable")))
                .containsEntry(
                        "REDRIVE_DEAD_LETTERS_QUEUE_URL", Map.of("Ref", t.queue("redrive-revenue-analytics-dlq")));
    }

    @Test
    void theBreakersPeriodsAreInTheEnvironmentWithTheFunctionsDefaultsUnlessTheContextSetsThem() {
        // Written out even when they are the functions' defaults, so that whatever reads the template (the local run's
        // waits) reads the stack's values and never keeps a copy of the defaults.
        assertThat(t.environment(t.function("confirmation-email")))
                .containsEntry("REDRIVE_BREAKERS_EMAIL_PROVIDER_OPEN_PERIOD", "PT30S")
                .containsEntry("REDRIVE_BREAKERS_EMAIL_PROVIDER_MAX_OPEN_PERIOD", "PT10M")
                .containsEntry("REDRIVE_BREAKERS_EMAIL_PROVIDER_PROBE_LEASE", "PT30S")
                .containsEntry("REDRIVE_BREAKERS_EMAIL_PROVIDER_ENABLED", "true");

        TemplateView demo = Synth.template(
                Map.of("breakerOpenPeriod", "PT5S", "breakerMaxOpenPeriod", "PT20S", "breakerProbeLease", "PT10S"));

        assertThat(demo.environment(demo.function("confirmation-email")))
                .containsEntry("REDRIVE_BREAKERS_EMAIL_PROVIDER_OPEN_PERIOD", "PT5S")
                .containsEntry("REDRIVE_BREAKERS_EMAIL_PROVIDER_MAX_OPEN_PERIOD", "PT20S")
                .containsEntry("REDRIVE_BREAKERS_EMAIL_PROVIDER_PROBE_LEASE", "PT10S");
        assertThat(demo.environment(demo.function("revenue-analytics")))
                .doesNotContainKey("REDRIVE_BREAKERS_EMAIL_PROVIDER_OPEN_PERIOD");
        assertThatThrownBy(() -> Synth.stack(Map.of("breakerOpenPeriod", "PT5M", "breakerMaxOpenPeriod", "PT1M")))
                .hasMessageContaining("breakerMaxOpenPeriod");
        assertThatThrownBy(() -> Synth.stack(Map.of("breakerProbeLease", "PT0S")))
                .hasMessageContaining("breakerProbeLease");
    }

    @Test
    void theBreakerCanBeSwitchedOffToMeasureWhatItSaves() {
        TemplateView off = Synth.template(Map.of("breakerEnabled", "false"));

        assertThat(off.environment(off.function("confirmation-email")))
                .containsEntry("REDRIVE_BREAKERS_EMAIL_PROVIDER_ENABLED", "false");
        assertThatThrownBy(() -> Synth.stack(Map.of("breakerEnabled", "sometimes")))
                .hasMessageContaining("breakerEnabled");
    }

    @Test
    void byDefaultEveryFunctionIsTheJvmArtifactOnArm64WhichItRunsOnAtALowerPricePerGbSecond() {
        assertThat(t.functionIds())
                .as("2 consumers, the sweeper, the checkout, its relay, outbox sweep and reconciliation")
                .hasSize(7)
                .allSatisfy(id -> {
                    Map<String, Object> fn = t.properties(id);
                    assertThat(fn.get("Runtime")).isEqualTo("java21");
                    assertThat(fn.get("Handler"))
                            .isEqualTo("io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest");
                    assertThat(fn.get("Architectures")).isEqualTo(List.of("arm64"));
                    assertThat(t.environment(id)).doesNotContainKey("DISABLE_SIGNAL_HANDLERS");
                });
        assertThat(t.functionIds().stream()
                        .map(id -> t.properties(id).get("Code"))
                        .distinct())
                .as("one artifact for every function")
                .hasSize(1);
    }
}
