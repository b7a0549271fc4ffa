package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.checkout.CheckoutNames;
import dev.redrive.infra.build.CfnLint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrency: each consumer's batch size, batching window and maximum concurrency are settings, its function reserves
 * its maximum concurrency, and the checkout behind the Function URL has a reserved concurrency that is also its
 * ceiling, so it cannot starve the consumers. And cfn-lint, informational checks included, finds no SnapStart notice.
 */
class ConcurrencyTest {

    @TempDir
    Path tmp;

    private static Map<String, Object> mappingOf(TemplateView t, String handler) {
        String alias = t.alias(t.function(handler));
        return t.resources("AWS::Lambda::EventSourceMapping").values().stream()
                .map(m -> map(m, "Properties"))
                .filter(m -> String.valueOf(m.get("FunctionName")).contains(alias))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no mapping for " + handler));
    }

    @Test
    void byDefaultEachConsumerReservesItsMaximumConcurrencyAndTheCheckoutIsCappedAt50() {
        TemplateView t = Synth.defaults();

        for (String consumer : new String[] {CheckoutNames.CONFIRMATION_EMAIL, CheckoutNames.REVENUE_ANALYTICS}) {
            assertThat(map(mappingOf(t, consumer), "ScalingConfig").get("MaximumConcurrency"))
                    .isEqualTo(5);
            assertThat(t.properties(t.function(consumer)).get("ReservedConcurrentExecutions"))
                    .as(consumer)
                    .isEqualTo(5);
        }
        assertThat(t.properties(t.function(CheckoutNames.CHECKOUT)).get("ReservedConcurrentExecutions"))
                .isEqualTo(50);
    }

    @Test
    void eachConsumersScalingIsASettingOfItsOwnOverTheStackWideOne() {
        TemplateView t = Synth.template(Map.of(
                "maxConcurrency", "8",
                "revenue-analytics.batchSize", "500",
                "revenue-analytics.maxBatchingWindow", "PT20S",
                "revenue-analytics.maxConcurrency", "40",
                "revenue-analytics.reservedConcurrency", "60",
                "confirmation-email.reservedConcurrency", "none",
                "checkoutReservedConcurrency", "none"));

        Map<String, Object> revenue = mappingOf(t, CheckoutNames.REVENUE_ANALYTICS);
        assertThat(revenue.get("BatchSize")).isEqualTo(500);
        assertThat(revenue.get("MaximumBatchingWindowInSeconds")).isEqualTo(20);
        assertThat(map(revenue, "ScalingConfig").get("MaximumConcurrency")).isEqualTo(40);
        assertThat(t.properties(t.function(CheckoutNames.REVENUE_ANALYTICS)).get("ReservedConcurrentExecutions"))
                .isEqualTo(60);
        assertThat(t.properties(t.queue("redrive-revenue-analytics")).get("VisibilityTimeout"))
                .as("6 x 30 s + the 20 s window")
                .isEqualTo(200);

        Map<String, Object> email = mappingOf(t, CheckoutNames.CONFIRMATION_EMAIL);
        assertThat(email.get("BatchSize")).isEqualTo(10);
        assertThat(map(email, "ScalingConfig").get("MaximumConcurrency")).isEqualTo(8);
        assertThat(t.properties(t.function(CheckoutNames.CONFIRMATION_EMAIL)))
                .doesNotContainKey("ReservedConcurrentExecutions");
        assertThat(t.properties(t.function(CheckoutNames.CHECKOUT))).doesNotContainKey("ReservedConcurrentExecutions");
    }

    @Test
    void aReservationBelowTheMaximumConcurrencyOrALimitLambdaRefusesFailsTheSynthNamingTheConsumer() {
        assertThatThrownBy(() -> Synth.stack(Map.of(
                        "revenue-analytics.maxConcurrency", "20", "revenue-analytics.reservedConcurrency", "10")))
                .hasMessageStartingWith("reservedConcurrency 10 of revenue-analytics is below its maxConcurrency 20");
        assertThatThrownBy(() -> Synth.stack(Map.of("confirmation-email.batchSize", "50")))
                .hasMessageStartingWith("batchSize 50 of confirmation-email needs a maxBatchingWindow above 0 s");
        assertThatThrownBy(() -> Synth.stack(Map.of("maxConcurrency", "1")))
                .hasMessage("maxConcurrency of confirmation-email must be 2 to 1000, was 1");
        assertThatThrownBy(() -> Synth.stack(Map.of("checkoutReservedConcurrency", "many")))
                .hasMessageStartingWith("-c checkoutReservedConcurrency=many is neither a whole number nor none");
    }

    /**
     * One cfn-lint process lints both templates (its start is paid once): the JVM one is the default stack's (runtime
     * {@code jvm} is the default, {@link SnapStartTest} reads its {@code java21} functions), the native one
     * {@link SnapStartTest}'s {@code runtime=native} stack; both are synthesized once per JVM ({@link Synth}).
     */
    @Test
    void cfnLintWithInformationalChecksFindsNoSnapStartNoticeInTheJvmOrTheNativeTemplate() throws Exception {
        Assumptions.assumeTrue(CfnLint.findCfnLint().isPresent(), "cfn-lint is not installed (pip install cfn-lint)");
        Map<String, TemplateView> templates = new java.util.LinkedHashMap<>();
        templates.put("jvm", Synth.defaults());
        templates.put("native", Synth.template(Map.of("runtime", "native")));
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, TemplateView> template : templates.entrySet()) {
            Path file = tmp.resolve(template.getKey() + ".template.json");
            Files.writeString(
                    file,
                    new com.fasterxml.jackson.databind.ObjectMapper()
                            .writeValueAsString(template.getValue().template().toJSON()));
            files.add(file);
        }

        CfnLint.Findings lint = CfnLint.lint(files);

        assertThat(lint.output()).as("jvm and native").doesNotContain("I2530", "W2530", "E2530");
        assertThat(lint.snapStart()).as("jvm and native").isEmpty();
        assertThat(lint.exit() & 0b11)
                .as("jvm and native: no errors (cfn-lint's exit bits are those of both files)\n" + lint.output())
                .isZero();
        assertThat(templates.get("native").properties(templates.get("native").function("checkout")))
                .as("the native template is native")
                .containsEntry("Runtime", "provided.al2023");
        assertThat(templates.get("jvm").properties(templates.get("jvm").function("checkout")))
                .as("the default template is the JVM one")
                .containsEntry("Runtime", "java21");
    }
}
