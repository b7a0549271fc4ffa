package dev.redrive.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.checkout.CheckoutNames.OrderIndexShards;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The orders table's index shards in the template: the count reaches every function of the producer (the checkout
 * writes both indexes, the relay clears the outbox's, the sweep and the reconciliation read them), at its default too;
 * a draining count only when set; a count outside 1 to the maximum is refused at synth.
 */
class OrderIndexShardsTest {

    static final List<String> PRODUCER =
            List.of("checkout", "outbox-relay", "outbox-sweeper", "checkout-reconciliation");

    @Test
    void everyProducerFunctionIsToldTheDefaultShardCountAndNoDrainingOne() {
        TemplateView t = Synth.defaults();
        for (String handler : PRODUCER) {
            assertThat(t.environment(t.function(handler)))
                    .as(handler)
                    .containsEntry(OrderIndexShards.VARIABLE, Integer.toString(OrderIndexShards.DEFAULT))
                    .doesNotContainKey(OrderIndexShards.DRAINING_VARIABLE);
        }
        assertThat(OrderIndexShards.VARIABLE).isEqualTo("REDRIVE_CHECKOUT_INDEX_SHARDS");
        assertThat(OrderIndexShards.DEFAULT).isEqualTo(8);
    }

    @Test
    void theShardCountAndTheDrainingCountAreSettings() {
        TemplateView t = Synth.template(Map.of("orderIndexShards", "4", "orderIndexShardsDraining", "16"));
        for (String handler : PRODUCER) {
            assertThat(t.environment(t.function(handler)))
                    .as(handler)
                    .containsEntry("REDRIVE_CHECKOUT_INDEX_SHARDS", "4")
                    .containsEntry("REDRIVE_CHECKOUT_INDEX_SHARDS_DRAINING", "16");
        }
        assertThat(t.environment(t.function("confirmation-email")))
                .as("a consumer has no part in the orders table")
                .doesNotContainKey("REDRIVE_CHECKOUT_INDEX_SHARDS");
    }

    @Test
    void aShardCountOutsideOneToTheMaximumOrADrainingCountBelowItIsRefusedAtSynth() {
        assertThatThrownBy(() -> Synth.stack(Map.of("orderIndexShards", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-c orderIndexShards=0")
                .hasMessageContaining("1 to " + OrderIndexShards.MAX);
        assertThatThrownBy(() -> Synth.stack(Map.of("orderIndexShards", Integer.toString(OrderIndexShards.MAX + 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-c orderIndexShards=" + (OrderIndexShards.MAX + 1));
        assertThatThrownBy(() -> Synth.stack(Map.of("orderIndexShards", "eight")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orderIndexShards 'eight' is not a whole number");
        assertThatThrownBy(() -> Synth.stack(Map.of("orderIndexShards", "16", "orderIndexShardsDraining", "8")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-c orderIndexShardsDraining=8")
                .hasMessageContaining("more than orderIndexShards (16)");
    }
}
