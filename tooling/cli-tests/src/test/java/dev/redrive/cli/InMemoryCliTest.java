package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.core.sweeper.ReplayStats;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The CLI's commands on core's in-memory fakes: parsing, presentation and exit codes are the CLI's, every rule is the
 * operator port's. The same commands run on local AWS in the other CLI tests.
 */
class InMemoryCliTest {

    final InMemoryCli cli = new InMemoryCli();

    @Test
    void listShowsTheWaitingDeadLettersOldestFirstAndSaysWhenNoneMatch() {
        cli.deadLetter("q-new", Orders.v2("e-new", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofMinutes(5));
        cli.deadLetter("q-old", Orders.v0("e-old"), FailureClass.SCHEMA, "UnknownVersion", Duration.ofHours(3));

        CliRig.Run all = cli.run("list");
        CliRig.Run transientOnly = cli.run("list", "--class", "TRANSIENT", "--older-than", "1h");

        assertThat(all.exitCode()).isZero();
        assertThat(all.out().indexOf("q-old")).isLessThan(all.out().indexOf("q-new"));
        assertThat(all.out()).contains("3h", "UnknownVersion", "2 dead letter(s).");
        assertThat(transientOnly.out())
                .isEqualTo("No dead letters match (state=QUARANTINED|UNDER_REVIEW|SCHEMA_CHECK|IDEMPOTENCY_CHECK,"
                        + "class=TRANSIENT,older-than=1h).\n");
    }

    @Test
    void showRedactsWhatTheSchemaMarksSensitive() {
        cli.deadLetter("q-1", Orders.v2("e-1", 2500), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));

        CliRig.Run run = cli.run("show", "q-1");
        CliRig.Run missing = cli.run("show", "q-missing");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Dead letter q-1", "\"email\" : \"[redacted]\"", "\"amountMinor\" : 2500");
        assertThat(run.out()).doesNotContain("ada@example.com");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("no dead letter 'q-missing' in quarantine table 'redrive-quarantine'");
    }

    @Test
    void aReplayGoesThroughThePortsChecksAndIsCountedInTheReplayStatistics() {
        cli.deadLetter("q-1", Orders.v2("e-1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        cli.deadLetter("q-v1", Orders.v1("e-v1"), FailureClass.SCHEMA, "OutdatedVersion", Duration.ofHours(1));
        cli.deadLetter("q-v0", Orders.v0("e-v0"), FailureClass.SCHEMA, "UnknownVersion", Duration.ofHours(1));
        String applied = Orders.v2("e-applied", 100);
        cli.deadLetter("q-applied", applied, FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        cli.applied(applied);

        CliRig.Run run = cli.run("replay", "q-1", "q-v1", "q-v0", "q-applied", "--actor", "ada");

        assertThat(run.exitCode()).as("a refusal is not a clean run").isEqualTo(ExitCodes.PARTIAL);
        assertThat(run.out())
                .containsPattern("q-1\\s+sent to order-placed-email as message replayed-\\d, replay #1")
                .contains("(upcast v1 to v2)")
                .contains("refused and archived: OrderPlaced v0 has no registered upcaster to v2")
                .contains("already applied under confirmation-email#e-applied: nothing sent")
                .contains("Replayed 3 of 4: sent 2, already applied (nothing sent) 1, refused and archived 1.");
        assertThat(cli.sender.sent())
                .extracting(s -> s.stringAttributes().get(ReplayMarker.ATTRIBUTE))
                .containsExactlyInAnyOrder("q-1:1", "q-v1:1");
        assertThat(cli.stats.totals())
                .isEqualTo(Map.of(
                        FailureClass.TRANSIENT, new ReplayStats.Totals(1, 0),
                        FailureClass.SCHEMA, new ReplayStats.Totals(1, 0)));
        assertThat(cli.record("q-1").audit())
                .extracting(AuditEntry::to)
                .containsExactly(
                        QuarantineState.QUARANTINED,
                        QuarantineState.UNDER_REVIEW,
                        QuarantineState.SCHEMA_CHECK,
                        QuarantineState.IDEMPOTENCY_CHECK,
                        QuarantineState.REPLAYED);
        assertThat(cli.record("q-1").audit().get(1).actor()).isEqualTo(Actor.person("ada"));
    }

    @Test
    void aDryRunAsksForNoActorAndChangesNothing() {
        cli.deadLetter("q-1", Orders.v2("e-1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));

        CliRig.Run run = cli.run("replay", "--filter", "queue=order-placed-email", "--dry-run");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).as("no STS lookup, so no warning").isEmpty();
        assertThat(run.out()).containsPattern("q-1\\s+would send to order-placed-email");
        assertThat(cli.sender.sent()).isEmpty();
        assertThat(cli.stats.totals()).isEmpty();
        assertThat(cli.record("q-1").version()).isEqualTo(1);
    }

    @Test
    void aStopRequestedBeforeTheFirstMessageReplaysNothingAndSaysHowToResume() {
        cli.deadLetter("q-1", Orders.v2("e-1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        cli.deadLetter("q-2", Orders.v2("e-2", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        CliContext context = CliContext.of(Map.of(), cli.clock, "os-user");
        context.stop().set(true);

        CliRig.Run run = cli.run(context, "replay", "--filter", "class=TRANSIENT", "--actor", "ada");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(run.out()).contains("Replayed 0 of 2");
        assertThat(run.err()).contains("2 of 2 not done; run the same command again to resume");
        assertThat(cli.sender.sent()).isEmpty();
    }

    @Test
    void anArchiveByFilterTakesOnlyWhatAPersonMayArchiveAndNotesWhy() {
        cli.deadLetter("q-1", Orders.v2("e-1", 100), FailureClass.PERMANENT, "Rule", Duration.ofHours(1));
        cli.deadLetter("q-2", Orders.v2("e-2", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));

        CliRig.Run run = cli.run("archive", "--filter", "class=PERMANENT", "--note", "refunded", "--actor", "ada");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Archived 1 of 1.");
        assertThat(cli.record("q-1").state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(cli.record("q-1").note()).isEqualTo("archived by decision: refunded");
        assertThat(cli.record("q-2").state()).isEqualTo(QuarantineState.QUARANTINED);
    }

    @Test
    void windowsAreAddedListedAndRemovedThroughThePort() {
        String[] add = {
            "window",
            "add",
            "--dependency",
            "email-provider",
            "--start",
            "now",
            "--end",
            "now+2h",
            "--reason",
            "CHG-1",
            "--id",
            "chg-1",
            "--actor",
            "ada"
        };

        CliRig.Run added = cli.run(add);
        CliRig.Run again = cli.run(add);
        CliRig.Run list = cli.run("window", "list");
        CliRig.Run remove = cli.run("window", "remove", "chg-1");

        assertThat(added.exitCode()).isZero();
        assertThat(again.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(list.out()).contains("chg-1", "email-provider", "active", "ada");
        assertThat(remove.out()).contains("Removed window chg-1.");
        assertThat(cli.windows.list()).isEmpty();
    }

    @Test
    void statsShowTheRoutesFiguresAndTheReplaySuccessRate() {
        cli.deadLetter("q-1", Orders.v2("e-1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(2));
        cli.queues.add(
                InMemoryCli.ROUTE.deadLetterQueue(),
                new ArrivedDeadLetter(
                        "m-9", "rh", "{}", Map.of(), 1, InMemoryCli.NOW, Optional.empty(), Optional.empty()));
        cli.stats.add(FailureClass.TRANSIENT, 4, 1);

        CliRig.Run run = cli.run("stats");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("confirmation-email: order-placed-email -> order-placed-email-dlq")
                .contains("dead-letter queue      1 visible, 0 in flight, 0 delayed")
                .contains("oldest unresolved      2h (q-1, QUARANTINED)")
                .contains("by state               QUARANTINED 1")
                .containsPattern("TRANSIENT\\s+4\\s+1\\s+75.0%");
    }
}
