package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.claim.ClaimRetention;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClaimTtlCheckTest {

    final ClaimRetention retention = new ClaimRetention(Duration.ofDays(4), Duration.ofDays(14), Duration.ofDays(30));

    @Test
    void aTtlShorterThanAMessageCanComeBackIsRefusedNamingTheSettings() {
        assertThat(ClaimTtlCheck.problem(Duration.ofDays(35), retention))
                .hasValueSatisfying(message -> assertThat(message)
                        .contains("REDRIVE_CLAIMS_RECORD_TTL (redrive.claims.record-ttl) 35 days")
                        .contains("REDRIVE_CLAIMS_SOURCE_RETENTION 4")
                        .contains("REDRIVE_CLAIMS_DEAD_LETTER_RETENTION 14")
                        .contains("REDRIVE_SWEEPER_RETENTION 30")
                        .contains("= 49 days"));
    }

    @Test
    void aTtlThatCoversEveryWayBackStarts() {
        assertThat(ClaimTtlCheck.problem(Duration.ofDays(49), retention)).isEmpty();
        assertThat(retention.claimHorizonAfterArrival(Duration.ofDays(49))).isEqualTo(Duration.ofDays(31));
    }

    @Test
    void theDefaultsAreSafe() {
        assertThat(ClaimTtlCheck.problem(
                        Duration.ofDays(35),
                        new ClaimRetention(Duration.ofDays(4), Duration.ofDays(14), Duration.ofDays(7))))
                .isEmpty();
    }
}
