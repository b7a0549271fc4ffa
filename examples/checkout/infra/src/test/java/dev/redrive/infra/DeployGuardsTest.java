package dev.redrive.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a {@code cdk deploy} with missing context refuses, before anything reaches CloudFormation: functions without
 * code (the placeholder asset) unless asked for, and the checkout without a payment provider; and the platform alone
 * ({@code checkoutProducer=false}) carries none of the example's producer.
 */
class DeployGuardsTest {

    private static final String PROVIDER = "https://payments.example.com/";

    @Test
    void withoutAnArtifactTheSynthRefusesThePlaceholderNamingBothFlags() {
        assertThatThrownBy(() -> Synth.asGiven(Map.of("paymentProviderUrl", PROVIDER)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no functions artifact")
                .hasMessageContaining("-c functionsAsset=")
                .hasMessageContaining("-c placeholderAsset=true")
                .hasMessageContaining("./mvnw -B -ntp package -pl examples/checkout/functions -am");
    }

    @Test
    void thePlaceholderIsDeployedOnlyWhenAskedForAndNotOnOtherValues() {
        RedriveStack stack = Synth.asGiven(Map.of("paymentProviderUrl", PROVIDER, "placeholderAsset", "true"));
        assertThat(stack.artifact().isPlaceholder()).isTrue();

        assertThatThrownBy(() -> Synth.asGiven(Map.of("paymentProviderUrl", PROVIDER, "placeholderAsset", "false")))
                .hasMessageContaining("-c placeholderAsset=true");
        assertThatThrownBy(() -> Synth.asGiven(Map.of("paymentProviderUrl", PROVIDER, "placeholderAsset", "yes")))
                .hasMessageContaining("placeholderAsset 'yes' must be true or false");
    }

    @Test
    void theCheckoutWithoutAPaymentProviderIsRefusedNamingTheFlagAndThePlatformOnlyAlternative() {
        assertThatThrownBy(() -> Synth.asGiven(Map.of("placeholderAsset", "true")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-c paymentProviderUrl=https://")
                .hasMessageContaining("503")
                .hasMessageContaining("-c checkoutProducer=false");
        assertThatThrownBy(() -> Synth.asGiven(Map.of("placeholderAsset", "true", "checkoutProducer", "true")))
                .hasMessageContaining("-c paymentProviderUrl=");
    }

    @Test
    void withoutTheCheckoutTheStackIsThePlatformAndNoneOfTheProducer() {
        TemplateView t = Synth.templateAsGiven(Map.of("placeholderAsset", "true", "checkoutProducer", "false"));

        assertThat(t.functionIds().stream()
                        .map(id -> t.environment(id).get("QUARKUS_LAMBDA_HANDLER"))
                        .toList())
                .containsExactlyInAnyOrder("confirmation-email", "revenue-analytics", "dlq-sweeper");
        assertThat(t.resources("AWS::DynamoDB::Table").keySet())
                .hasSize(4)
                .noneMatch(id -> id.startsWith("CheckoutProducer"));
        assertThat(List.of("ClaimsTable", "QuarantineTable", "ControlTable", "RevenueTable"))
                .allSatisfy(t::table);
        assertThat(t.resources("AWS::Lambda::Url")).isEmpty();
        assertThat(t.resources("AWS::Lambda::EventSourceMapping").values())
                .hasSize(2)
                .allSatisfy(m -> assertThat(String.valueOf(TemplateView.map(m, "Properties")))
                        .doesNotContain("StreamArn"));
        assertThat(t.resources("AWS::Scheduler::Schedule")).hasSize(1);
        assertThat(t.template().toJSON().keySet()).contains("Resources");
        assertThat(t.template().toJSON().toString())
                .doesNotContain("CheckoutProducer")
                .doesNotContain("REDRIVE_CHECKOUT_ORDERS_TABLE")
                .doesNotContain("PAYMENTS_URL");
        assertThat(t.template().findOutputs("*").keySet())
                .doesNotContain("CheckoutUrl", "OrdersTableName")
                .contains("ClaimsTableName", "QuarantineTableName", "ControlTableName", "AlarmTopicArn");
    }
}
