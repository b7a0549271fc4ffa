package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.aws.ledger.DynamoDbReplayStats;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

@LocalAwsTest(resetBeforeEach = true)
class ReplayCommandTest {

    CliRig rig;

    @BeforeEach
    void rig(LocalAws aws) {
        rig = new CliRig(aws);
    }

    @Test
    void aReplaySendsTheMessageBackWithItsMarkerAndTheActorInEveryAuditEntry() {
        rig.deadLetter("q-1", Orders.v2("e-1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));

        CliRig.Run run = rig.run("replay", "q-1", "--actor", "ada", "--reason", "mail provider is back");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .containsPattern("q-1\\s+sent to order-placed-email as message \\S+, replay #1")
                .contains("Replayed 1 of 1: sent 1, already applied (nothing sent) 0, refused and archived 0.");
        List<Message> sent = rig.drainSource();
        assertThat(sent).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo(Orders.v2("e-1", 100));
            assertThat(m.messageAttributes().get(ReplayMarker.ATTRIBUTE).stringValue())
                    .isEqualTo("q-1:1");
            assertThat(m.messageAttributes().get("traceparent").stringValue()).isEqualTo("00-abc-def-01");
        });
        QuarantineRecord r = rig.record("q-1");
        assertThat(r.state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(r.replayCount()).isEqualTo(1);
        assertThat(r.audit())
                .extracting(AuditEntry::to)
                .containsExactly(
                        QuarantineState.QUARANTINED,
                        QuarantineState.UNDER_REVIEW,
                        QuarantineState.SCHEMA_CHECK,
                        QuarantineState.IDEMPOTENCY_CHECK,
                        QuarantineState.REPLAYED);
        assertThat(r.audit().subList(1, 5)).extracting(AuditEntry::actor).containsOnly(Actor.person("ada"));
        assertThat(r.audit().get(1).reason()).isEqualTo("mail provider is back");
        assertThat(new DynamoDbReplayStats(rig.aws.dynamoDb(), "redrive-control")
                        .totals()
                        .get(FailureClass.TRANSIENT)
                        .sent())
                .isEqualTo(1);
    }

    @Test
    void anAlreadyAppliedMessageIsMarkedReplayedAndNothingIsSent() {
        String body = Orders.v2("e-applied", 100);
        rig.deadLetter("q-applied", body, FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        rig.applied(body);

        CliRig.Run run = rig.run("replay", "q-applied", "--actor", "ada");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("q-applied", "already applied under confirmation-email#e-applied: " + "nothing sent")
                .contains("already applied (nothing sent) 1");
        assertThat(rig.drainSource()).isEmpty();
        QuarantineRecord r = rig.record("q-applied");
        assertThat(r.state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(r.note()).contains("already applied").contains("nothing sent");
        assertThat(r.replayCount()).isZero();
    }

    @Test
    void incompatiblePayloadsAreRefusedWithTheReasonAndArchived() {
        rig.deadLetter("q-v0", Orders.v0("e-v0"), FailureClass.SCHEMA, "UnknownVersion", Duration.ofHours(1));
        rig.deadLetter(
                "q-broken", Orders.brokenV2("e-br"), FailureClass.SCHEMA, "SchemaValidation", Duration.ofHours(1));

        CliRig.Run run = rig.run("replay", "q-v0", "q-broken", "--actor", "ada");

        assertThat(run.exitCode()).as("refusals are not a clean run").isEqualTo(1);
        assertThat(run.out())
                .contains("q-v0", "refused and archived: OrderPlaced v0 has no registered upcaster " + "to v2")
                .contains(
                        "q-broken",
                        "refused and archived: fails the current schema v2: $.total is " + "string, expected object")
                .contains("refused and archived 2");
        assertThat(rig.drainSource()).isEmpty();
        for (String id : List.of("q-v0", "q-broken")) {
            QuarantineRecord r = rig.record(id);
            assertThat(r.state()).isEqualTo(QuarantineState.ARCHIVED);
            assertThat(r.note()).startsWith("incompatible: ");
            assertThat(r.audit()).last().satisfies(a -> assertThat(a.actor()).isEqualTo(Actor.person("ada")));
        }
    }

    @Test
    void anOlderVersionIsUpcastBeforeItIsSent() throws Exception {
        rig.deadLetter("q-v1", Orders.v1("e-v1"), FailureClass.SCHEMA, "OutdatedVersion", Duration.ofHours(1));

        CliRig.Run run = rig.run("replay", "q-v1", "--actor", "ada");

        assertThat(run.out()).contains("(upcast v1 to v2)");
        JsonNode sent = Json.MAPPER.readTree(rig.drainSource().get(0).body());
        assertThat(sent.get("version").asInt()).isEqualTo(2);
        assertThat(sent.at("/total/amountMinor").asLong()).isEqualTo(1999);
    }

    @Test
    void aDryRunSaysWhatWouldHappenAndChangesNothing() {
        rig.deadLetter("q-ok", Orders.v2("e-ok", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(2));
        rig.deadLetter("q-v0", Orders.v0("e-v0"), FailureClass.SCHEMA, "UnknownVersion", Duration.ofHours(1));

        CliRig.Run run = rig.run("replay", "--filter", "queue=order-placed-email", "--dry-run");

        assertThat(run.out())
                .containsPattern("q-ok\\s+would send to order-placed-email")
                .containsPattern("q-v0\\s+would refuse: OrderPlaced v0")
                .contains("Dry run, nothing changed: 2 of 2: would send 1");
        assertThat(rig.drainSource()).isEmpty();
        assertThat(rig.record("q-ok").version()).isEqualTo(1);
        assertThat(rig.record("q-v0").state()).isEqualTo(QuarantineState.QUARANTINED);
    }

    @Test
    void jsonPrintsOneLinePerMessageAndASummaryLine() throws Exception {
        rig.deadLetter("q-a", Orders.v2("e-a", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(2));
        rig.deadLetter("q-b", Orders.v0("e-b"), FailureClass.SCHEMA, "UnknownVersion", Duration.ofHours(1));

        CliRig.Run run = rig.run("replay", "--filter", "state=QUARANTINED", "--json", "--actor", "ada");

        List<JsonNode> lines = run.out()
                .lines()
                .map(l -> {
                    try {
                        return Json.MAPPER.readTree(l);
                    } catch (JsonProcessingException e) {
                        throw new AssertionError("not a JSON line: " + l, e);
                    }
                })
                .toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0).get("id").asText()).isEqualTo("q-a");
        assertThat(lines.get(0).get("outcome").asText()).isEqualTo("Sent");
        assertThat(lines.get(1).get("outcome").asText()).isEqualTo("Refused");
        assertThat(lines.get(2).at("/summary/outcomes/sent").asInt()).isEqualTo(1);
        assertThat(lines.get(2).at("/summary/outcomes/refused").asInt()).isEqualTo(1);
        assertThat(run.exitCode()).isEqualTo(1);
    }

    @Test
    void withoutActorTheAuditNamesTheAwsCallerIdentityFromSts() {
        rig.deadLetter("q-sts", Orders.v2("e-sts", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));

        CliRig.Run run = rig.run("replay", "q-sts");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        String actor = rig.record("q-sts").audit().get(1).actor().name();
        assertThat(actor).startsWith("arn:aws:");
    }

    @Test
    void withoutStsTheAuditNamesTheOsUserAndSaysWhy() {
        rig.deadLetter("q-os", Orders.v2("e-os", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        rig.env.put("AWS_ENDPOINT_URL_STS", "http://127.0.0.1:9");

        CliRig.Run run = rig.run("replay", "q-os");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err())
                .startsWith("redrive: could not ask STS who you are")
                .contains("acting as OS user " + "'os-user'");
        assertThat(rig.record("q-os").audit().get(1).actor()).isEqualTo(Actor.person("os-user"));
    }

    @Test
    void badArgumentsAreOneLineAndExitTwo() {
        CliRig.Run nothing = rig.run("replay");
        CliRig.Run malformed = rig.run("replay", "--filter", "queue");
        CliRig.Run unknownKey = rig.run("replay", "--filter", "colour=red");
        CliRig.Run unknownId = rig.run("replay", "q-missing");

        for (CliRig.Run run : List.of(nothing, malformed, unknownKey, unknownId)) {
            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.err().lines()).singleElement().asString().startsWith("redrive replay: ");
            assertThat(run.out()).isEmpty();
        }
        assertThat(malformed.err()).contains("malformed filter 'queue': expected key=value");
        assertThat(unknownKey.err()).contains("unknown filter key 'colour'");
        assertThat(unknownId.err()).contains("no dead letter 'q-missing'");
    }
}
