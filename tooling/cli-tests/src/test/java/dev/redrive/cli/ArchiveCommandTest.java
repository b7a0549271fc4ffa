package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@LocalAwsTest(resetBeforeEach = true)
class ArchiveCommandTest {

    CliRig rig;

    @BeforeEach
    void seed(LocalAws aws) {
        rig = new CliRig(aws);
        rig.deadLetter(
                "q-junk", Orders.v2("e-junk", 100), FailureClass.PERMANENT, "InvalidRecipient", Duration.ofHours(4));
        rig.deadLetter(
                "q-jpy-1",
                Orders.v2("e-jpy-1", 100),
                FailureClass.PERMANENT,
                "UnsupportedCurrency",
                Duration.ofHours(3));
        rig.deadLetter(
                "q-jpy-2",
                Orders.v2("e-jpy-2", 100),
                FailureClass.PERMANENT,
                "UnsupportedCurrency",
                Duration.ofHours(2));
        rig.deadLetter("q-keep", Orders.v2("e-keep", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
    }

    @Test
    void aPersonArchivesADeadLetterWithTheirNoteAndNameInTheAuditTrail() {
        CliRig.Run run = rig.run("archive", "q-junk", "--note", "test order from the load test", "--actor", "bo");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .containsPattern("q-junk\\s+archived \\(was QUARANTINED\\): archived by decision: test "
                        + "order from the load test")
                .contains("Archived 1 of 1.");
        QuarantineRecord r = rig.record("q-junk");
        assertThat(r.state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(r.audit())
                .last()
                .isEqualTo(new AuditEntry(
                        QuarantineState.QUARANTINED,
                        QuarantineState.ARCHIVED,
                        CliRig.NOW,
                        Actor.person("bo"),
                        "archived by decision: test order from the load test"));
    }

    @Test
    void aFilterArchivesEveryMatchAndADryRunNone() {
        CliRig.Run dry = rig.run(
                "archive",
                "--filter",
                "error-type=UnsupportedCurrency",
                "--note",
                "JPY: refunded",
                "--dry-run",
                "--actor",
                "bo");
        assertThat(dry.out())
                .contains("would archive", "q-jpy-1", "q-jpy-2")
                .doesNotContain("q-junk")
                .contains("Dry run, nothing changed: would archive 2 of 2.");
        assertThat(rig.record("q-jpy-1").state()).isEqualTo(QuarantineState.QUARANTINED);

        CliRig.Run run = rig.run(
                "archive", "--filter", "error-type=UnsupportedCurrency", "--note", "JPY: refunded", "--actor", "bo");

        assertThat(run.exitCode()).isZero();
        assertThat(rig.record("q-jpy-1").state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(rig.record("q-jpy-2").state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(rig.record("q-keep").state()).isEqualTo(QuarantineState.QUARANTINED);
    }

    @Test
    void otherStatesAreRefusedWithAClearMessageAndLeftAsTheyAre() {
        rig.run("replay", "q-keep", "--actor", "ada");

        CliRig.Run run = rig.run("archive", "q-keep", "--note", "changed my mind", "--actor", "bo");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.PARTIAL);
        assertThat(run.out())
                .containsPattern("q-keep\\s+refused: it is REPLAYED; only \\[QUARANTINED, UNDER_REVIEW\\] "
                        + "dead letters can be archived by a person")
                .contains("Archived 0 of 1; 1 refused");
        assertThat(rig.record("q-keep").state()).isEqualTo(QuarantineState.REPLAYED);
    }

    @Test
    void aNoteIsRequiredAndUnknownIdsAreUsageErrors() {
        CliRig.Run noNote = rig.run("archive", "q-junk", "--actor", "bo");
        CliRig.Run unknown = rig.run("archive", "q-who", "--note", "x", "--actor", "bo");

        assertThat(noNote.exitCode()).isEqualTo(2);
        assertThat(noNote.err())
                .isEqualTo("redrive archive: Missing required option: '--note=TEXT' (see 'redrive "
                        + "archive --help')\n");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err().lines()).singleElement().asString().contains("no dead letter 'q-who'");
        assertThat(rig.record("q-junk").state()).isEqualTo(QuarantineState.QUARANTINED);
    }
}
