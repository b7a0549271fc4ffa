package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@LocalAwsTest(resetBeforeEach = true)
class ListCommandTest {

    CliRig rig;

    @BeforeEach
    void seed(LocalAws aws) {
        rig = new CliRig(aws);
        rig.deadLetter("q-timeout-1", Orders.v2("e1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(5));
        rig.deadLetter("q-timeout-2", Orders.v2("e2", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofMinutes(20));
        rig.deadLetter("q-timeout-3", Orders.v2("e3", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofMinutes(5));
        rig.deadLetter("q-schema-1", Orders.v1("e4"), FailureClass.SCHEMA, "OutdatedVersion", Duration.ofDays(2));
        rig.deadLetter(
                "q-rule-1", Orders.v2("e5", 100), FailureClass.PERMANENT, "InvalidRecipient", Duration.ofHours(3));
    }

    @Test
    void listsTheUnresolvedDeadLettersOldestFirstAsATable() {
        CliRig.Run run = rig.run("list");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out().lines().findFirst().orElseThrow())
                .contains("ID", "STATE", "CLASS", "ERROR TYPE", "QUEUE", "AGE", "REASON");
        assertThat(run.out())
                .containsSubsequence("q-schema-1", "q-timeout-1", "q-rule-1", "q-timeout-2", "q-timeout-3");
        assertThat(run.out()).contains("2d", "5h", "20m").contains("5 dead letter(s).");
    }

    @Test
    void filtersByClassAgeErrorTypeAndQueue() {
        CliRig.Run transientOld = rig.run("list", "--class", "transient", "--older-than", "1h");
        CliRig.Run byType = rig.run("list", "--error-type", "InvalidRecipient", "--queue", CliRig.QUEUE);
        CliRig.Run otherQueue = rig.run("list", "--queue", "somewhere-else");

        assertThat(transientOld.out())
                .contains("q-timeout-1")
                .doesNotContain("q-timeout-2", "q-schema-1", "q-rule-1")
                .contains("1 dead letter(s).");
        assertThat(byType.out()).contains("q-rule-1").doesNotContain("q-timeout-1");
        // a queue neither the routes nor the ledger know is a typo, not "nothing there" (issue 39)
        assertThat(otherQueue.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(otherQueue.out()).isEmpty();
        assertThat(otherQueue.err()).startsWith("redrive list: unknown queue 'somewhere-else': Known: " + CliRig.QUEUE);
    }

    @Test
    void groupsFailuresByErrorTypeAndReasonWithCountsFirstLastSeenAndASample() throws Exception {
        CliRig.Run run = rig.run("list", "--group");
        CliRig.Run json = rig.run("list", "--group", "--json");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out().lines().skip(1).findFirst().orElseThrow())
                .startsWith("3")
                .contains("TRANSIENT", "Timeout", "q-timeout-1", "Timeout from the mail provider");
        assertThat(run.out()).contains("5 dead letter(s) in 3 group(s).");
        JsonNode groups = Json.MAPPER.readTree(json.out());
        assertThat(groups).hasSize(3);
        JsonNode timeouts = groups.get(0);
        assertThat(timeouts.get("count").asInt()).isEqualTo(3);
        assertThat(timeouts.get("sampleId").asText()).isEqualTo("q-timeout-1");
        assertThat(timeouts.get("firstSeen").asText())
                .isEqualTo(
                        CliRig.NOW.minus(Duration.ofHours(5)).minusSeconds(90).toString());
        assertThat(timeouts.get("lastSeen").asText())
                .isEqualTo(
                        CliRig.NOW.minus(Duration.ofMinutes(5)).minusSeconds(30).toString());
    }

    @Test
    void jsonListsEveryFieldButThePayload() throws Exception {
        CliRig.Run run = rig.run("list", "--json", "--limit", "2");

        JsonNode rows = Json.MAPPER.readTree(run.out());
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("id").asText()).isEqualTo("q-schema-1");
        assertThat(rows.get(0).get("classification").get("failureClass").asText())
                .isEqualTo("SCHEMA");
        assertThat(rows.get(0).get("ageSeconds").asLong())
                .isEqualTo(Duration.ofDays(2).toSeconds());
        assertThat(run.out()).doesNotContain("example.com");
    }

    @Test
    void replayedAndArchivedOnesAreListedOnlyWhenAsked() {
        rig.run("archive", "q-rule-1", "--note", "bad address, customer called", "--actor", "ada");

        assertThat(rig.run("list").out()).doesNotContain("q-rule-1");
        assertThat(rig.run("list", "--state", "ARCHIVED").out())
                .contains("q-rule-1")
                .contains("1 dead letter(s).");
        assertThat(rig.run("list", "--state", "all").out()).contains("q-rule-1", "q-timeout-3");
    }

    @Test
    void anUnknownStateOrClassIsOneLineAndExitTwo() {
        CliRig.Run state = rig.run("list", "--state", "LOST");
        CliRig.Run klass = rig.run("list", "--class", "FLAKY");
        CliRig.Run age = rig.run("list", "--older-than", "soon");

        assertThat(state.exitCode()).isEqualTo(2);
        assertThat(state.err())
                .isEqualTo("redrive list: unknown state 'LOST': use one of [QUARANTINED, "
                        + "UNDER_REVIEW, SCHEMA_CHECK, IDEMPOTENCY_CHECK, REPLAYED, ARCHIVED], all or unresolved\n");
        assertThat(klass.exitCode()).isEqualTo(2);
        assertThat(klass.err().lines()).singleElement().asString().contains("--class", "FLAKY");
        assertThat(age.exitCode()).isEqualTo(2);
        assertThat(age.err().lines()).singleElement().asString().contains("'soon' is not a duration");
        assertThat(state.out() + klass.out() + age.out()).isEmpty();
    }

    /**
     * Dead letters the archive sweep moved to S3 leave only a tombstone in the ledger, out of its by-state index: a
     * listing of ARCHIVED (or REPLAYED) still shows them, by queue and across the routes' queues.
     */
    @Test
    void anArchivedListingShowsTheDeadLettersArchivedToS3() {
        QuarantineRecord kept = rig.record("q-rule-1");
        QuarantineRecord stored = rig.record("q-schema-1");
        archive(kept, false);
        archive(stored, true);

        CliRig.Run all = rig.run("list", "--state", "ARCHIVED");
        CliRig.Run ofQueue = rig.run("list", "--state", "ARCHIVED", "--queue", CliRig.QUEUE);
        CliRig.Run unresolved = rig.run("list");

        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(all.out()).containsSubsequence("q-schema-1", "q-rule-1").contains("2 dead letter(s).");
        assertThat(ofQueue.out()).containsSubsequence("q-schema-1", "q-rule-1").contains("2 dead letter(s).");
        assertThat(unresolved.out()).doesNotContain("q-schema-1", "q-rule-1").contains("3 dead letter(s).");
    }

    private void archive(QuarantineRecord r, boolean toTheStore) {
        QuarantineRecord archived =
                r.moveTo(QuarantineState.ARCHIVED, Actor.person("ada"), "not ours", CliRig.NOW.minusSeconds(60));
        rig.ledger
                .save(toTheStore ? archived.tombstone("archive/" + r.id() + ".jsonl.gz") : archived, Optional.empty())
                .orElseThrow();
    }
}
