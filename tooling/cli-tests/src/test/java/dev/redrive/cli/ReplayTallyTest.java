package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A replay whose checks failed for one dead letter is counted as such: not as "not found", and not as replayed. */
class ReplayTallyTest {

    @Test
    void aFailedCheckIsCountedOnItsOwnAndLeavesTheRunPartial() {
        ReplayTally tally = new ReplayTally();
        tally.add(
                new ReplayOutcome.Sent("q-1", "orders", "m-1", 1, "", false, Duration.ZERO),
                QuarantineState.QUARANTINED);
        tally.add(
                new ReplayOutcome.CheckFailed("q-2", "its claim check's payload cannot be read: AccessDenied"),
                QuarantineState.QUARANTINED);

        assertThat(tally.done()).isEqualTo(2);
        assertThat(tally.allReplayed()).isFalse();
        assertThat(tally.json().get("checkFailed").asInt()).isEqualTo(1);
        assertThat(tally.json().get("notFound").asInt()).isZero();
        assertThat(tally.describe(false)).contains("checks failed (nothing changed; run the same command again) 1");
    }
}
