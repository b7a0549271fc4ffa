package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.checkout.CheckoutContracts;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code redrive breaker list|release|probe} (issue 36, item 5): an operator sees every shared breaker with its hold and
 * the windows holding it, ends a hold (the windows keep approving replays), or asks for a probe, on local AWS.
 */
@LocalAwsTest(resetBeforeEach = true)
class BreakerCommandTest {

    static final String MAIL = "email-provider";
    static final Instant NOW = CliRig.NOW;

    CliRig rig;
    DynamoDbMaintenanceWindows windows;
    DynamoDbBreakerStore breakers;

    @BeforeEach
    void rig(LocalAws aws) {
        rig = new CliRig(aws);
        windows = new DynamoDbMaintenanceWindows(aws.dynamoDb(), "redrive-control");
        breakers = new DynamoDbBreakerStore(aws.dynamoDb(), "redrive-control");
    }

    void holdingWindow(String id, String start, String end) {
        CliRig.Run add = rig.run(
                "window",
                "add",
                "--dependency",
                MAIL,
                "--start",
                start,
                "--end",
                end,
                "--reason",
                "CHG-7 mail provider migration",
                "--id",
                id,
                "--hold-breaker",
                "--actor",
                "ada");
        assertThat(add.exitCode()).as(add.err()).isZero();
    }

    @Test
    void listShowsEachBreakerWithItsHoldAndTheWindowsHoldingIt() throws Exception {
        holdingWindow("chg-7", "now-10m", "now+50m");

        CliRig.Run text = rig.run("breaker", "list");
        CliRig.Run json = rig.run("breaker", "list", "--json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out())
                .containsPattern("DEPENDENCY\\s+STATE\\s+HELD UNTIL\\s+HELD BY\\s+NEXT PROBE\\s+TOKEN")
                .containsPattern(MAIL + "\\s+OPEN\\s+2026-11-29T12:50:00Z\\s+chg-7\\s+in 50m\\s+1");
        JsonNode breaker = Json.MAPPER.readTree(json.out()).get(0);
        assertThat(breaker.get("dependency").asText()).isEqualTo(MAIL);
        assertThat(breaker.get("held").asBoolean()).isTrue();
        assertThat(breaker.get("heldBy")).extracting(JsonNode::asText).containsExactly("chg-7");
        assertThat(breaker.get("openUntil").asText()).isEqualTo("2026-11-29T12:50:00Z");
    }

    @Test
    void releaseEndsTheHoldNowAndTheWindowKeepsApprovingReplays() {
        holdingWindow("chg-7", "now-10m", "now+50m");

        CliRig.Run release = rig.run("breaker", "release", "--dependency", MAIL, "--actor", "bo");

        assertThat(release.exitCode()).as(release.err()).isZero();
        assertThat(release.out())
                .contains("Released the " + MAIL + " circuit breaker")
                .contains("chg-7 no longer holds it");
        BreakerState released = breakers.read(MAIL);
        assertThat(released.status()).isEqualTo(Status.OPEN);
        assertThat(released.held()).isFalse();
        assertThat(released.openUntil()).as("the next call probes").isEqualTo(NOW);
        assertThat(windows.find("chg-7"))
                .as("the window stays, approving replays, holding nothing")
                .hasValueSatisfying(w -> assertThat(w.holdsBreaker()).isFalse());
        assertThat(breakers.history(MAIL).get(0).reason()).contains("bo");
    }

    @Test
    void probeEndsTheOpenPeriodNowSoTheNextCallProbes() {
        BreakerState open =
                new CircuitBreakerRules(BreakerPolicy.DEFAULT).open(BreakerState.closed(), NOW.minusSeconds(20));
        breakers.transition(MAIL, 0, open, BreakerTransition.of(Status.CLOSED, open, open.openedAt(), "5 in a row"));

        CliRig.Run probe = rig.run("breaker", "probe", "--dependency", MAIL, "--actor", "bo");

        assertThat(probe.exitCode()).as(probe.err()).isZero();
        assertThat(probe.out()).contains("the next call").contains("probes");
        BreakerState due = breakers.read(MAIL);
        assertThat(due.openUntil()).isEqualTo(NOW);
        assertThat(due.token()).isEqualTo(open.token() + 1);
        assertThat(breakers.history(MAIL).get(0).reason()).contains("bo");
    }

    /**
     * The breakers an operator sees are the ones the routes document declares, whatever the team calls them: the CLI
     * knew only the example's mail provider (a constant in redrive-aws), so a second team's breaker could be neither
     * held by a window nor listed.
     */
    @Test
    void theBreakersAreTheOnesTheRoutesDeclare() throws Exception {
        RoutesDocument two = new RoutesDocument(List.of(
                rig.routes().routes().get(0),
                CheckoutContracts.route("payment-capture", rig.queue.url(), rig.queue.dlqUrl(), "payments-api")));
        rig.env.put(Settings.ROUTES, two.toJson());

        CliRig.Run add = rig.run(
                "window",
                "add",
                "--dependency",
                "payments-api",
                "--start",
                "now-10m",
                "--end",
                "now+50m",
                "--reason",
                "CHG-9 payments API upgrade",
                "--id",
                "chg-9",
                "--hold-breaker",
                "--actor",
                "ada");
        CliRig.Run list = rig.run("breaker", "list", "--json");

        assertThat(add.exitCode()).as(add.err()).isZero();
        assertThat(list.exitCode()).as(list.err()).isZero();
        assertThat(Json.MAPPER.readTree(list.out()))
                .extracting(b -> b.get("dependency").asText())
                .containsExactlyInAnyOrder(MAIL, "payments-api");
        assertThat(breakers.read("payments-api").held())
                .as("the window holds it")
                .isTrue();
    }

    @Test
    void errorsNameWhatThereIs() {
        CliRig.Run unknown = rig.run("breaker", "release", "--dependency", "payments", "--actor", "bo");
        CliRig.Run closed = rig.run("breaker", "probe", "--dependency", MAIL, "--actor", "bo");
        holdingWindow("chg-7", "now-10m", "now+50m");
        CliRig.Run held = rig.run("breaker", "probe", "--dependency", MAIL, "--actor", "bo");

        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("no circuit breaker of payments").contains("[" + MAIL + "]");
        assertThat(closed.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(closed.err()).contains("CLOSED");
        assertThat(held.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(held.err()).contains("chg-7").contains("redrive breaker release --dependency " + MAIL);
        assertThat(breakers.read(MAIL).openUntil()).isEqualTo(NOW.plus(Duration.ofMinutes(50)));
    }
}
