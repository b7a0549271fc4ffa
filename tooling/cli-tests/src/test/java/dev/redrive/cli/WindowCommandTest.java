package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.checkout.CheckoutContracts;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@LocalAwsTest(resetBeforeEach = true)
class WindowCommandTest {

    CliRig rig;
    DynamoDbMaintenanceWindows windows;

    @BeforeEach
    void rig(LocalAws aws) {
        rig = new CliRig(aws);
        windows = new DynamoDbMaintenanceWindows(aws.dynamoDb(), "redrive-control");
    }

    @Test
    void addListAndRemoveAWindowApprovedByTheActor() throws Exception {
        CliRig.Run add = rig.run(
                "window",
                "add",
                "--dependency",
                "email-provider",
                "--start",
                "now-30m",
                "--end",
                "now+90m",
                "--reason",
                "CHG-1234 mail provider maintenance",
                "--id",
                "chg-1234",
                "--actor",
                "ada");

        assertThat(add.exitCode()).isZero();
        assertThat(add.out())
                .isEqualTo("Added window chg-1234: email-provider from 2026-11-29T11:30:00Z to "
                        + "2026-11-29T13:30:00Z (2h), approved by ada.\n");
        assertThat(windows.find("chg-1234"))
                .contains(new MaintenanceWindow(
                        "chg-1234",
                        "email-provider",
                        CliRig.NOW.minus(Duration.ofMinutes(30)),
                        CliRig.NOW.plus(Duration.ofMinutes(90)),
                        "ada",
                        "CHG-1234 mail provider maintenance"));

        // revenue-store is a dependency the routes declare (a second route's breaker): a window may name only those
        rig.env.put(
                Settings.ROUTES,
                new RoutesDocument(List.of(
                                rig.routes().routes().get(0),
                                CheckoutContracts.route(
                                        "revenue-analytics", rig.queue.url(), rig.queue.dlqUrl(), "revenue-store")))
                        .toJson());
        rig.run(
                "window",
                "add",
                "--dependency",
                "revenue-store",
                "--start",
                "2026-12-01T22:00:00Z",
                "--end",
                "2026-12-01T23:30:00+01:00",
                "--reason",
                "table migration",
                "--actor",
                "bo");
        CliRig.Run list = rig.run("window", "list");
        CliRig.Run json = rig.run("window", "list", "--json");

        assertThat(list.out().lines().toList()).hasSize(3);
        assertThat(list.out())
                .containsPattern("chg-1234\\s+email-provider\\s+2026-11-29T11:30:00Z\\s+"
                        + "2026-11-29T13:30:00Z\\s+active\\s+no\\s+ada\\s+CHG-1234 mail provider maintenance")
                .containsPattern("w-20261201-2200-[0-9a-f]{4}\\s+revenue-store\\s+2026-12-01T22:00:00Z\\s+"
                        + "2026-12-01T22:30:00Z\\s+upcoming\\s+no\\s+bo\\s+table migration");
        JsonNode parsed = Json.MAPPER.readTree(json.out());
        assertThat(parsed).hasSize(2);
        assertThat(parsed.get(1).get("end").asText()).isEqualTo("2026-12-01T22:30:00Z");
        assertThat(parsed.get(1).get("status").asText()).isEqualTo("upcoming");
        assertThat(parsed.get(1).get("approvedBy").asText()).isEqualTo("bo");

        CliRig.Run typo = rig.run("window", "remove", "chg-1243");
        CliRig.Run remove = rig.run("window", "remove", "chg-1234");

        assertThat(typo.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err()).contains("unknown maintenance window 'chg-1243': did you mean 'chg-1234'?");

        assertThat(remove.exitCode()).isZero();
        assertThat(remove.out()).isEqualTo("Removed window chg-1234.\n");
        assertThat(windows.list()).extracting(MaintenanceWindow::dependency).containsExactly("revenue-store");
    }

    @Test
    void aWindowThatEndsBeforeItStartsIsRefusedInOneLine() {
        CliRig.Run run = rig.run(
                "window",
                "add",
                "--dependency",
                "email-provider",
                "--start",
                "now",
                "--end",
                "now-1h",
                "--reason",
                "oops",
                "--actor",
                "ada");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("redrive window add: the window ends (2026-11-29T11:00:00Z) before it starts "
                        + "(2026-11-29T12:00:00Z)\n");
        assertThat(windows.list()).isEmpty();
    }

    @Test
    void badTimesUnknownIdsAndAMissingSubcommandAreUsageErrors() {
        CliRig.Run badTime =
                rig.run("window", "add", "--dependency", "d", "--start", "tomorrow", "--end", "now", "--reason", "r");
        CliRig.Run unknown = rig.run("window", "remove", "w-nope");
        CliRig.Run bare = rig.run("window");

        assertThat(badTime.exitCode()).isEqualTo(2);
        assertThat(badTime.err().lines()).singleElement().asString().contains("'tomorrow' is not a time");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err())
                .isEqualTo("redrive window remove: unknown maintenance window 'w-nope': no maintenance window is "
                        + "known (see redrive window list)\n");
        assertThat(bare.exitCode()).isEqualTo(2);
        assertThat(bare.err().lines()).singleElement().asString().contains("add, list or remove");
    }

    @Test
    void aLongOrPastWindowIsAddedWithAWarning() {
        CliRig.Run run = rig.run(
                "window",
                "add",
                "--dependency",
                "email-provider",
                "--start",
                Instant.parse("2026-11-20T00:00:00Z").toString(),
                "--end",
                "2026-11-22T00:00:00Z",
                "--reason",
                "outage",
                "--actor",
                "ada");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err())
                .contains("warning: the window lasts longer than 24h")
                .contains("warning: the window is over already");
        assertThat(windows.list()).hasSize(1);
    }

    @Test
    void aWindowHoldsItsDependencysBreakerOpenUntilItsEndAndRemovingItEndsTheHold(LocalAws aws) {
        DynamoDbBreakerStore breakers = new DynamoDbBreakerStore(aws.dynamoDb(), "redrive-control");

        CliRig.Run add = rig.run(
                "window",
                "add",
                "--dependency",
                "email-provider",
                "--start",
                "now",
                "--end",
                "now+2h",
                "--reason",
                "CHG-1236 provider upgrade",
                "--id",
                "chg-1236",
                "--hold-breaker",
                "--actor",
                "ada");

        assertThat(add.exitCode()).isZero();
        assertThat(add.out())
                .contains("The email-provider circuit breaker is held OPEN until 2026-11-29T14:00:00Z in every sandbox "
                        + "(token 1): no call reaches it, messages wait, replays are held; after the window one probe "
                        + "decides.");
        BreakerState held = breakers.read("email-provider");
        assertThat(held.status()).isEqualTo(BreakerState.Status.OPEN);
        assertThat(held.openUntil()).isEqualTo(CliRig.NOW.plus(Duration.ofHours(2)));

        assertThat(rig.run("window", "remove", "chg-1236").exitCode()).isZero();

        assertThat(breakers.read("email-provider").openUntil())
                .as("released: the next call probes")
                .isEqualTo(CliRig.NOW);
    }

    @Test
    void aHoldForAWindowThatStartsLaterIsKeptWithTheWindowAndTheBreakerIsLeftUntilItsStart(LocalAws aws) {
        CliRig.Run add = rig.run(
                "window",
                "add",
                "--dependency",
                "email-provider",
                "--start",
                "now+1h",
                "--end",
                "now+2h",
                "--reason",
                "CHG-1237",
                "--id",
                "chg-1237",
                "--hold-breaker",
                "--actor",
                "ada");

        assertThat(add.exitCode()).isZero();
        assertThat(add.out())
                .contains("The email-provider circuit breaker will be held OPEN from the sweeper's first run after "
                        + "2026-11-29T13:00:00Z until 2026-11-29T14:00:00Z in every sandbox");
        assertThat(windows.find("chg-1237").orElseThrow().holdsBreaker()).isTrue();
        assertThat(new DynamoDbBreakerStore(aws.dynamoDb(), "redrive-control").read("email-provider"))
                .isEqualTo(BreakerState.closed());
        assertThat(rig.run("window", "list").out())
                .containsPattern("chg-1237\\s+email-provider\\s+\\S+\\s+\\S+\\s+upcoming\\s+yes\\s+ada");
    }

    @Test
    void aHoldForAWindowThatIsOverOrOfADependencyWithoutABreakerIsRefusedBeforeAnythingIsWritten(LocalAws aws) {
        // payments is a dependency a dead letter's failure names (so a window may cover it), but no breaker is shared
        rig.deadLetter(
                "q-pay",
                Orders.v2("e-pay", 100),
                new Classification(FailureClass.TRANSIENT, "Timeout", "payments timed out", "payments"),
                Duration.ofHours(1));
        CliRig.Run over = rig.run(
                "window",
                "add",
                "--dependency",
                "email-provider",
                "--start",
                "now-2h",
                "--end",
                "now-1h",
                "--reason",
                "CHG-1238",
                "--id",
                "chg-1238",
                "--hold-breaker",
                "--actor",
                "ada");
        CliRig.Run noBreaker = rig.run(
                "window",
                "add",
                "--dependency",
                "payments",
                "--start",
                "now+1h",
                "--end",
                "now+2h",
                "--reason",
                "CHG-1239",
                "--id",
                "chg-1239",
                "--hold-breaker",
                "--actor",
                "ada");

        assertThat(over.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(over.err()).contains("this one is over (it ended 2026-11-29T11:00:00Z)");
        assertThat(noBreaker.exitCode()).isEqualTo(ExitCodes.CONFIG);
        assertThat(noBreaker.err())
                .contains("window chg-1239 was not added: no circuit breaker of payments is shared here");
        assertThat(windows.find("chg-1238")).isEmpty();
        assertThat(windows.find("chg-1239")).isEmpty();
        assertThat(new DynamoDbBreakerStore(aws.dynamoDb(), "redrive-control").read("email-provider"))
                .isEqualTo(BreakerState.closed());
    }
}
