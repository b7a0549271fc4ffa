package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.names.RedriveNames.ReplayPaceVariables;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A person's bulk replay keeps the sweeper's pace (the same {@code REDRIVE_REPLAYS_*} variables): the replays are sent
 * at once, each visible at its slot, the progress and the summary say so, and nothing is sent to a dependency whose
 * breaker is open.
 */
@LocalAwsTest(resetBeforeEach = true)
class PacedBulkReplayTest {

    CliRig rig;

    @BeforeEach
    void rig(LocalAws aws) {
        rig = new CliRig(aws);
        rig.env.put(ReplayPaceVariables.RATE_PER_SECOND, "5");
        for (int i = 0; i < 12; i++) {
            rig.deadLetter(
                    "q-" + i, Orders.v2("e-" + i, 100 + i), FailureClass.TRANSIENT, "Timeout", Duration.ofMinutes(30));
        }
    }

    @Test
    void aBulkReplayIsSentAtTheSweepersPaceAndSaysWhenTheLastBecomesVisible(LocalAws aws) {
        long started = System.nanoTime();

        CliRig.Run run = rig.run("replay", "--filter", "class=TRANSIENT", "--actor", "ada", "--quiet");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Replayed 12 of 12: sent 12 (paced 11, the last visible in 2.2 s)");
        assertThat(rig.sendsById())
                .hasSize(12)
                .allSatisfy((id, sends) -> assertThat(sends).isEqualTo(1));
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("the last, 2.2 s after the first, is SQS's whole 2 s")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1_900));
    }

    @Test
    void whileTheDependencysBreakerIsOpenTheReplayIsHeldAndNothingIsSent(LocalAws aws) {
        CircuitBreakerRules rules = new CircuitBreakerRules(BreakerPolicy.DEFAULT);
        BreakerState open = rules.open(BreakerState.closed(), CliRig.NOW);
        new DynamoDbBreakerStore(aws.dynamoDb(), "redrive-control")
                .transition(
                        "email-provider",
                        0,
                        open,
                        BreakerTransition.of(BreakerState.Status.CLOSED, open, CliRig.NOW, "mail down"));

        CliRig.Run run = rig.run("replay", "--filter", "class=TRANSIENT", "--actor", "ada", "--quiet");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.PARTIAL);
        assertThat(run.out())
                .contains("sent 0")
                .contains("held by the replay pace (the dependency's breaker is open, or its replays are booked up to "
                        + "the horizon; run the same command again later) 12");
        assertThat(rig.sendsById()).isEmpty();
        assertThat(rig.record("q-0").state()).as("held untouched").isEqualTo(QuarantineState.QUARANTINED);
    }
}
