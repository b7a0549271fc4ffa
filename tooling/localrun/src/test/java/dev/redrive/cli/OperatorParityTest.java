package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.aws.AwsRedrive;
import dev.redrive.aws.ledger.DynamoDbReplayStats;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SweeperRoutes;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.localrun.scenario.Operator;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A replay through the CLI and one through the local run's scripted operator go through the same operator port, so
 * they leave the same trail and count the same in the replay statistics (before the port recorded them, the local
 * run's replays counted nothing).
 */
@LocalAwsTest(resetBeforeEach = true)
class OperatorParityTest {

    @Test
    void aReplayThroughTheCliAndOneThroughTheLocalRunsOperatorRecordTheSameStatistics(LocalAws aws) {
        CliRig rig = new CliRig(aws);
        rig.deadLetter("q-cli", Orders.v2("e-cli", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        rig.deadLetter("q-op", Orders.v2("e-op", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        DynamoDbReplayStats stats = new DynamoDbReplayStats(aws.dynamoDb(), "redrive-control");

        CliRig.Run cli = rig.run("replay", "q-cli", "--actor", "ada", "--reason", "provider back");
        Map<FailureClass, ReplayStats.Totals> afterCli = stats.totals();
        ReplayOutcome byOperator = localRunOperator(aws, rig).replay(rig.record("q-op"), "provider back");
        Map<FailureClass, ReplayStats.Totals> afterOperator = stats.totals();

        assertThat(cli.exitCode()).isZero();
        assertThat(byOperator).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(afterCli).isEqualTo(Map.of(FailureClass.TRANSIENT, new ReplayStats.Totals(1, 0)));
        assertThat(afterOperator)
                .as("the operator's replay added what the CLI's did")
                .isEqualTo(Map.of(FailureClass.TRANSIENT, new ReplayStats.Totals(2, 0)));
        assertThat(rig.record("q-op").audit())
                .extracting(AuditEntry::to)
                .containsExactlyElementsOf(
                        rig.record("q-cli").audit().stream().map(AuditEntry::to).toList());
        assertThat(rig.sendsById()).isEqualTo(Map.of("q-cli", 1, "q-op", 1));
    }

    /** The local run's operator over the rig's tables, bucket and routes. */
    private static Operator localRunOperator(LocalAws aws, CliRig rig) {
        QueueDirectory directory = new QueueDirectory(aws.sqs(), Optional.empty());
        SweeperRoutes.of(rig.routes(), directory);
        AwsRedrive redrive = new AwsRedrive(
                aws.dynamoDb(),
                aws.sqs(),
                aws.s3(),
                directory,
                new AwsRedrive.Names(
                        "redrive-claims", "redrive-quarantine", "redrive-control", "redrive-archive", Optional.empty()),
                30,
                rig.clock);
        return new Operator(redrive, rig.routes(), Actor.person("ada"));
    }
}
