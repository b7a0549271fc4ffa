package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.schema.PayloadRedactor;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@LocalAwsTest(resetBeforeEach = true)
class ShowCommandTest {

    CliRig rig;

    @BeforeEach
    void seed(LocalAws aws) {
        rig = new CliRig(aws);
        rig.deadLetter("q-v2", Orders.v2("e-show", 2500), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(3));
        rig.deadLetter("q-v1", Orders.v1("e-old"), FailureClass.SCHEMA, "OutdatedVersion", Duration.ofHours(1));
        rig.deadLetter("q-v0", Orders.v0("e-ancient"), FailureClass.SCHEMA, "UnknownVersion", Duration.ofHours(1));
        rig.deadLetter(
                "q-text", "not json: call linus@example.com", FailureClass.SCHEMA, "NotJson", Duration.ofHours(1));
    }

    @Test
    void showsEverythingWithTheSensitiveFieldsOfTheSchemaRedacted() {
        CliRig.Run run = rig.run("show", "q-v2");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .contains(
                        "Dead letter q-v2",
                        "QUARANTINED",
                        "confirmation-email#e-show",
                        "TRANSIENT",
                        "Timeout",
                        "email-provider",
                        "Timeout from the mail provider");
        assertThat(run.out())
                .contains("first failed       "
                        + CliRig.NOW.minus(Duration.ofHours(3)).minusSeconds(90) + " (3h 1m ago)")
                .contains("receive count      3")
                .contains("replay count       0");
        assertThat(run.out()).contains("traceparent        00-abc-def-01");
        assertThat(run.out())
                .contains("Payload (schema OrderPlaced v2; redacted $.customer.email, $.customer.name; "
                        + "--reveal shows them)");
        assertThat(run.out())
                .contains(
                        "\"email\" : \"[redacted]\"",
                        "\"name\" : \"[redacted]\"",
                        "\"amountMinor\" : 2500",
                        "\"orderId\" : \"o-e-show\"");
        assertThat(run.out()).doesNotContain("ada@example.com", "Ada Lovelace");
        assertThat(run.out()).contains("Audit trail").containsPattern("-\\s+QUARANTINED\\s+automation\\s+arrived in");
    }

    @Test
    void revealShowsTheSensitiveFieldsAndSaysToWhom() {
        CliRig.Run run = rig.run("show", "q-v2", "--reveal", "--actor", "ada");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("REVEALED to ada").contains("ada@example.com", "Ada Lovelace");
        assertThat(run.err()).isEqualTo("redrive show: sensitive fields of q-v2 were revealed to ada\n");
    }

    @Test
    void revealRecordsWhoWasShownWhichFieldsInTheAuditTrailAndAPlainShowRecordsNothing() {
        rig.run("show", "q-v2", "--actor", "bob");
        assertThat(rig.record("q-v2").audit())
                .as("a redacted show is not recorded")
                .hasSize(1);

        CliRig.Run run = rig.run("show", "q-v2", "--reveal", "--actor", "ada");
        CliRig.Run text = rig.run("show", "q-text", "--reveal", "--actor", "ada");

        assertThat(run.exitCode()).isZero();
        assertThat(rig.record("q-v2").audit())
                .hasSize(2)
                .last()
                .isEqualTo(new AuditEntry(
                        QuarantineState.QUARANTINED,
                        QuarantineState.QUARANTINED,
                        CliRig.NOW,
                        Actor.person("ada"),
                        "revealed the payload's sensitive fields: $.customer.email, $.customer.name",
                        AuditEntry.Action.PAYLOAD_REVEALED));
        assertThat(rig.record("q-v2").state()).isEqualTo(QuarantineState.QUARANTINED);
        assertThat(run.out())
                .as("the trail shown includes the reveal")
                .containsPattern("QUARANTINED\\s+QUARANTINED\\s+ada\\s+revealed the payload's sensitive fields");
        assertThat(text.exitCode()).isZero();
        assertThat(rig.record("q-text").audit())
                .last()
                .satisfies(a -> assertThat(a.reason())
                        .isEqualTo("revealed the whole payload (withheld, since its sensitive fields cannot be told "
                                + "apart)"));
    }

    @Test
    void eachVersionIsRedactedByItsOwnSchemaAndPayloadsWithoutOneByNameOrWithheld() {
        CliRig.Run v1 = rig.run("show", "q-v1");
        CliRig.Run v0 = rig.run("show", "q-v0");
        CliRig.Run text = rig.run("show", "q-text");

        assertThat(v1.out())
                .contains("schema OrderPlaced v1; redacted $.customerEmail")
                .doesNotContain("grace@example.com");
        assertThat(v0.out())
                .contains("OrderPlaced v0 has no schema: redacted by the names")
                .contains("$.email")
                .doesNotContain("linus@example.com");
        assertThat(text.out())
                .contains("not a JSON object (32 characters): withheld")
                .doesNotContain("linus@example.com");
        assertThat(rig.run("show", "q-text", "--reveal", "--actor", "ada").out())
                .contains("linus@example.com");
    }

    @Test
    void jsonCarriesTheRedactedPayloadTheAttributesAndTheAuditTrail() throws Exception {
        CliRig.Run run = rig.run("show", "q-v2", "--json");

        JsonNode n = Json.MAPPER.readTree(run.out());
        assertThat(n.get("id").asText()).isEqualTo("q-v2");
        assertThat(n.at("/payload/body/customer/email").asText()).isEqualTo(PayloadRedactor.MASK);
        assertThat(n.at("/payload/body/total/amountMinor").asLong()).isEqualTo(2500);
        assertThat(n.at("/payload/redacted")).hasSize(2);
        assertThat(n.at("/payload/revealedTo").isNull()).isTrue();
        assertThat(n.at("/attributes/traceparent").asText()).isEqualTo("00-abc-def-01");
        assertThat(n.get("audit"))
                .singleElement()
                .satisfies(a -> assertThat(a.get("actor").asText()).isEqualTo("automation"));
    }

    @Test
    void aPayloadKeptInTheArchiveBucketIsFetchedRedactedAndReplayedFromThere() {
        rig.deadLetterStoredAside("q-large", Orders.v2("e-large", 7700), Duration.ofHours(2));

        CliRig.Run show = rig.run("show", "q-large");
        CliRig.Run replay = rig.run("replay", "q-large", "--actor", "ada");

        assertThat(rig.record("q-large").body()).isNull();
        assertThat(show.out())
                .contains("\"amountMinor\" : 7700", "\"email\" : \"[redacted]\"")
                .doesNotContain("ada@example.com");
        assertThat(replay.exitCode()).isZero();
        assertThat(rig.drainSource())
                .singleElement()
                .satisfies(m -> assertThat(m.body()).isEqualTo(Orders.v2("e-large", 7700)));
    }

    @Test
    void anUnknownIdIsOneLineAndExitTwo() {
        CliRig.Run run = rig.run("show", "q-nope");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .isEqualTo("redrive show: no dead letter 'q-nope' in quarantine table "
                        + "'redrive-quarantine' (see redrive list)\n");
    }
}
