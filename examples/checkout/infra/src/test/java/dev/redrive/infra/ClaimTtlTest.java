package dev.redrive.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The claim TTL comes from how long a message can come back: source retention + dead-letter retention + quarantine
 * retention + a margin. Every function that claims or looks claims up is told it, and the inputs to check it by.
 */
class ClaimTtlTest {

    @Test
    void everyFunctionGetsTheTtlDerivedFromTheRetentions() {
        TemplateView t = Synth.defaults();

        for (String function : new String[] {"confirmation-email", "revenue-analytics", "dlq-sweeper"}) {
            assertThat(t.environment(t.function(function)))
                    .as(function)
                    .containsEntry("REDRIVE_CLAIMS_RECORD_TTL", "P26D") // 4 d + 14 d + 7 d + 1 d
                    .containsEntry("REDRIVE_CLAIMS_SOURCE_RETENTION", "P4D")
                    .containsEntry("REDRIVE_CLAIMS_DEAD_LETTER_RETENTION", "P14D")
                    .containsEntry("REDRIVE_SWEEPER_RETENTION", "P7D");
        }
    }

    @Test
    void aLongerQuarantineLengthensTheTtl() {
        TemplateView t = Synth.template(Map.of("sweeperRetention", "P30D"));

        assertThat(t.environment(t.function("confirmation-email")))
                .containsEntry("REDRIVE_CLAIMS_RECORD_TTL", "P49D")
                .containsEntry("REDRIVE_SWEEPER_RETENTION", "P30D");
    }

    @Test
    void anExplicitTtlShorterThanAMessageCanComeBackIsRefusedAtSynth() {
        assertThatThrownBy(() -> Synth.stack(Map.of("sweeperRetention", "P30D", "claimTtl", "P35D")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("claimTtl P35D")
                .hasMessageContaining("sweeperRetention P30D")
                .hasMessageContaining("source retention P4D")
                .hasMessageContaining("dead-letter retention P14D")
                .hasMessageContaining("P49D");
    }

    @Test
    void anExplicitTtlLongEnoughIsUsed() {
        TemplateView t = Synth.template(Map.of("claimTtl", "P90D"));

        assertThat(t.environment(t.function("dlq-sweeper"))).containsEntry("REDRIVE_CLAIMS_RECORD_TTL", "P90D");
    }
}
