package dev.redrive.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.checkout.CheckoutNames.OrderRetention;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The orders table's TTL in the template: the table expires items by {@code expiresAt}; the functions that finish
 * attempts (the checkout, the reconciliation) are told the attempts' retention, the ones that mark events published
 * (the relay, the sweep) the events', at their defaults too; each is a setting, refused below its floor at synth.
 */
class OrderRetentionSettingsTest {

    static final List<String> FINISH_ATTEMPTS = List.of("checkout", "checkout-reconciliation");
    static final List<String> MARK_EVENTS = List.of("outbox-relay", "outbox-sweeper");

    private static String orders(TemplateView t) {
        return t.resources("AWS::DynamoDB::Table").keySet().stream()
                .filter(id -> id.startsWith("CheckoutProducerOrdersTable"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theOrdersTableExpiresItemsByExpiresAtAndItsWritersAreToldTheDefaultRetentions() {
        TemplateView t = Synth.defaults();
        assertThat(t.properties(orders(t)).get("TimeToLiveSpecification"))
                .isEqualTo(Map.of("AttributeName", "expiresAt", "Enabled", true));
        for (String handler : FINISH_ATTEMPTS) {
            assertThat(t.environment(t.function(handler)))
                    .as(handler)
                    .containsEntry("REDRIVE_CHECKOUT_ATTEMPT_RETENTION", "P30D")
                    .doesNotContainKey(OrderRetention.EVENT_VARIABLE);
        }
        for (String handler : MARK_EVENTS) {
            assertThat(t.environment(t.function(handler)))
                    .as(handler)
                    .containsEntry("REDRIVE_CHECKOUT_PUBLISHED_EVENT_RETENTION", "P7D")
                    .doesNotContainKey(OrderRetention.ATTEMPT_VARIABLE);
        }
        assertThat(t.environment(t.function("confirmation-email")))
                .as("a consumer has no part in the orders table")
                .doesNotContainKeys(OrderRetention.ATTEMPT_VARIABLE, OrderRetention.EVENT_VARIABLE);
    }

    @Test
    void bothRetentionsAreSettings() {
        TemplateView t = Synth.template(Map.of("checkoutAttemptRetention", "P90D", "outboxEventRetention", "P2D"));
        for (String handler : FINISH_ATTEMPTS) {
            assertThat(t.environment(t.function(handler)))
                    .as(handler)
                    .containsEntry(OrderRetention.ATTEMPT_VARIABLE, "P90D");
        }
        for (String handler : MARK_EVENTS) {
            assertThat(t.environment(t.function(handler)))
                    .as(handler)
                    .containsEntry(OrderRetention.EVENT_VARIABLE, "P2D");
        }
    }

    @Test
    void aRetentionBelowItsFloorOrNotADurationIsRefusedAtSynth() {
        assertThatThrownBy(() -> Synth.stack(Map.of("checkoutAttemptRetention", "PT10M")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-c checkoutAttemptRetention=PT10M must be at least PT16M20S: the checkout's lease "
                        + "(its timeout PT15S and lease margin PT5S) and the reconciliation's look-back (its grace PT15M "
                        + "and lease PT1M)");
        assertThatThrownBy(() -> Synth.stack(Map.of("outboxEventRetention", "PT23H")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-c outboxEventRetention=PT23H must be at least PT24H: the orders table's stream keeps "
                        + "a record 24 hours, and the relay retrying one whose event has expired could not mark it");
        assertThatThrownBy(() -> Synth.stack(Map.of("outboxEventRetention", "7 days")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outboxEventRetention");
    }
}
