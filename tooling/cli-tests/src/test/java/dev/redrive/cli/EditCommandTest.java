package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive edit} over local AWS: the DynamoDB ledger keeps the original and the edit's audit entry. */
@LocalAwsTest(resetBeforeEach = true)
class EditCommandTest {

    CliRig rig;
    QuarantineRecord dead;

    @TempDir
    Path dir;

    @BeforeEach
    void rig(LocalAws aws) {
        rig = new CliRig(aws);
        dead = rig.deadLetter(
                "q-1", Orders.v2("e-1", 100), FailureClass.PERMANENT, "AmountTooLow", Duration.ofHours(1));
    }

    @Test
    void anAcceptedEditSendsTheEditedBodyOnceKeepsTheOriginalAndAuditsDiffReasonAndPerson() throws Exception {
        String fixed = Orders.v2("e-1", 250);

        CliRig.Run run =
                rig.run("edit", "q-1", "--payload", file(fixed), "--reason", "amount typo; T-42", "--actor", "ada");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("schema  current")
                .contains("key     kept: confirmation-email#e-1")
                .contains("diff    /total/amountMinor: 100 → 250")
                .containsPattern("q-1\\s+sent to order-placed-email as message \\S+, replay #1");
        assertThat(rig.drainSource()).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo(fixed);
            assertThat(m.messageAttributes().get(ReplayMarker.ATTRIBUTE).stringValue())
                    .isEqualTo("q-1:1");
            assertThat(m.messageAttributes().get("traceparent").stringValue()).isEqualTo("00-abc-def-01");
        });
        QuarantineRecord r = rig.record("q-1");
        assertThat(r.state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(r.body()).as("the original, as the DynamoDB ledger keeps it").isEqualTo(Orders.v2("e-1", 100));
        AuditEntry last = r.audit().get(r.audit().size() - 1);
        assertThat(last.to()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(last.actor()).isEqualTo(Actor.person("ada"));
        assertThat(last.reason())
                .contains("edited payload (the original is kept); reason: amount typo; T-42")
                .contains("diff: /total/amountMinor: 100 → 250");

        CliRig.Run shown = rig.run("show", "q-1", "--json");
        assertThat(shown.out()).contains("diff: /total/amountMinor: 100 → 250");
    }

    @Test
    void correctingASensitiveFieldKeepsItsValuesOutOfTheDiffTheAuditTrailAndTheOutput() throws Exception {
        String fixed = Orders.v2("e-1", 100).replace("ada@example.com", "ada.lovelace@example.com");

        CliRig.Run run = rig.run(
                "edit", "q-1", "--payload", file(fixed), "--reason", "customer's address corrected", "--actor", "ada");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("diff    /customer/email: [redacted] → [redacted]")
                .doesNotContain("ada@example.com", "ada.lovelace@example.com");
        assertThat(rig.drainSource())
                .singleElement()
                .satisfies(m -> assertThat(m.body()).isEqualTo(fixed));
        AuditEntry last =
                rig.record("q-1").audit().get(rig.record("q-1").audit().size() - 1);
        assertThat(last.reason())
                .contains("diff: /customer/email: [redacted] → [redacted]")
                .doesNotContain("ada@example.com", "ada.lovelace@example.com");
    }

    @Test
    void anEditThatBreaksTheSchemaIsRefusedWithTheValidatorsMessageAndNothingIsSent() throws Exception {
        CliRig.Run run =
                rig.run("edit", "q-1", "--payload", file(Orders.brokenV2("e-1")), "--reason", "fix", "--actor", "ada");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCodes.PARTIAL);
        assertThat(run.out())
                .contains("edit refused, nothing changed: the edited payload fails the consumer's current schema: "
                        + "fails the current schema v2: $.total is string, expected object");
        assertThat(rig.drainSource()).isEmpty();
        assertThat(rig.record("q-1")).isEqualTo(dead);
    }

    @Test
    void anEditThatChangesTheKeyIsRefusedNamingBothKeys() throws Exception {
        CliRig.Run run = rig.run(
                "edit", "q-1", "--payload", file(Orders.v2("e-2", 100)), "--reason", "fix", "--actor", "ada", "--json");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCodes.PARTIAL);
        JsonNode line = Json.MAPPER.readTree(run.out());
        assertThat(line.get("outcome").asText()).isEqualTo("Rejected");
        assertThat(line.get("description").asText())
                .contains("changes the idempotency key from confirmation-email#e-1 to confirmation-email#e-2");
        assertThat(line.get("key").asText()).isEqualTo("changed from confirmation-email#e-1 to confirmation-email#e-2");
        assertThat(rig.drainSource()).isEmpty();
        assertThat(rig.record("q-1")).isEqualTo(dead);
    }

    @Test
    void aDryRunShowsTheChecksAndTheDiffAndChangesNothing() throws Exception {
        CliRig.Run run = rig.run("edit", "q-1", "--payload", file(Orders.v2("e-1", 250)), "--dry-run");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("diff    /total/amountMinor: 100 → 250")
                .containsPattern("q-1\\s+would send to order-placed-email");
        assertThat(rig.drainSource()).isEmpty();
        assertThat(rig.record("q-1")).isEqualTo(dead);
    }

    @Test
    void anAlreadyAppliedEditIsNotSent() throws Exception {
        String fixed = Orders.v2("e-1", 250);
        rig.applied(fixed);

        CliRig.Run run = rig.run("edit", "q-1", "--payload", file(fixed), "--reason", "fix", "--actor", "ada");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("already applied under confirmation-email#e-1: nothing sent");
        assertThat(rig.drainSource()).isEmpty();
        assertThat(rig.record("q-1").state()).isEqualTo(QuarantineState.REPLAYED);
    }

    @Test
    void badArgumentsAreUsageErrorsThatChangeNothing() throws Exception {
        String fixed = file(Orders.v2("e-1", 250));

        CliRig.Run noReason = rig.run("edit", "q-1", "--payload", fixed, "--actor", "ada");
        CliRig.Run noFile =
                rig.run("edit", "q-1", "--payload", dir.resolve("nope.json").toString(), "--reason", "x");
        CliRig.Run noId = rig.run("edit", "q-9", "--payload", fixed, "--reason", "x", "--actor", "ada");
        CliRig.Run typo = rig.run("edt", "q-1");

        assertThat(noReason.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noReason.err()).contains("--reason must say what was corrected and why");
        assertThat(noFile.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noFile.err()).contains("--payload: no file '" + dir.resolve("nope.json") + "'");
        assertThat(noId.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noId.err()).contains("no dead letter 'q-9'");
        assertThat(typo.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err())
                .contains("unknown command 'edt': did you mean 'edit'? Known: archive, backoff, breaker, console, edit,"
                        + " list, replay, show, stats, window");
        assertThat(rig.drainSource()).isEmpty();
        assertThat(rig.record("q-1")).isEqualTo(dead);
    }

    @Test
    void theHelpHasAnExample() {
        CliRig.Run run = rig.run("edit", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("redrive edit q-3f2a9c41d0b7e65a18c4f2d1 --payload fixed.json --dry-run");
    }

    private String file(String body) throws Exception {
        Path p = Files.createTempFile(dir, "payload", ".json");
        Files.writeString(p, body);
        return p.toString();
    }
}
