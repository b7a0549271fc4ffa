package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.aws.ledger.DynamoDbReplayStats;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@LocalAwsTest(resetBeforeEach = true)
class StatsCommandTest {

    CliRig rig;

    @BeforeEach
    void seed(LocalAws aws) {
        rig = new CliRig(aws);
        for (int i = 0; i < 2; i++) {
            aws.sqs().sendMessage(b -> b.queueUrl(rig.queue.url()).messageBody("{}"));
        }
        for (int i = 0; i < 3; i++) {
            aws.sqs().sendMessage(b -> b.queueUrl(rig.queue.dlqUrl()).messageBody("{}"));
        }
        rig.deadLetter("q-old", Orders.v2("e-old", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(30));
        rig.deadLetter("q-new", Orders.v2("e-new", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(3));
        rig.deadLetter("q-schema", Orders.v1("e-v1"), FailureClass.SCHEMA, "OutdatedVersion", Duration.ofHours(2));
        rig.run("replay", "q-schema", "--actor", "ada");
        DynamoDbReplayStats stats = new DynamoDbReplayStats(aws.dynamoDb(), "redrive-control");
        stats.add(FailureClass.TRANSIENT, 4, 1);
    }

    @Test
    void perRouteDepthsOldestUnresolvedArrivalsStatesAndTheReplaySuccessRate() {
        CliRig.Run run = rig.run("stats");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .contains("confirmation-email: order-placed-email -> order-placed-email-dlq")
                .containsPattern("source queue\\s+3 visible, 0 in flight, 0 delayed")
                .containsPattern("dead-letter queue\\s+3 visible, 0 in flight, 0 delayed")
                .containsPattern("oldest unresolved\\s+1d 6h \\(q-old, QUARANTINED\\)")
                .containsPattern("arrivals, last 1d\\s+TRANSIENT 1 · PERMANENT 0 · SCHEMA 1 · POISON 0")
                .containsPattern("by state\\s+QUARANTINED 2 · REPLAYED 1")
                .containsPattern("TRANSIENT\\s+4\\s+1\\s+75.0%")
                .containsPattern("SCHEMA\\s+1\\s+0\\s+100.0%");
    }

    @Test
    void theMailProvidersCircuitBreakerShowsAsEverySandboxSharesIt() throws Exception {
        Instant openedAt = CliRig.NOW.minus(Duration.ofMinutes(3));
        Instant probedAt = CliRig.NOW.minus(Duration.ofMinutes(2));
        Instant failedAt = CliRig.NOW.minusSeconds(80);
        DynamoDbBreakerStore store = new DynamoDbBreakerStore(rig.aws.dynamoDb(), "redrive-control");
        BreakerState open = new BreakerState(
                Status.OPEN, 1, openedAt, Duration.ofMinutes(1), openedAt.plus(Duration.ofMinutes(1)), null);
        store.transition("email-provider", 0, open, BreakerTransition.of(Status.CLOSED, open, openedAt, "5 in a row"));
        BreakerState probing =
                new BreakerState(Status.HALF_OPEN, 2, openedAt, Duration.ofMinutes(1), null, probedAt.plusSeconds(30));
        store.transition(
                "email-provider", 1, probing, BreakerTransition.of(Status.OPEN, probing, probedAt, "probe due"));
        BreakerState reopened =
                new BreakerState(Status.OPEN, 3, openedAt, Duration.ofMinutes(2), CliRig.NOW.plusSeconds(40), null);
        store.transition(
                "email-provider",
                2,
                reopened,
                BreakerTransition.of(Status.HALF_OPEN, reopened, failedAt, "the probe failed: open again for PT2M"));

        CliRig.Run text = rig.run("stats");
        CliRig.Run json = rig.run("stats", "--json");

        assertThat(text.exitCode()).isZero();
        assertThat(text.out())
                .contains("Circuit breakers")
                .containsPattern("email-provider\\s+OPEN\\s+3m\\s+2m\\s+in 40s\\s+3")
                .contains("History of email-provider (newest first; the last 20 transitions are kept)")
                .containsPattern("2026-11-29T11:58:40Z\\s+1m 20s\\s+HALF_OPEN -> OPEN\\s+3\\s+the probe failed: "
                        + "open again for PT2M\\n\\s+2026-11-29T11:58:00Z\\s+2m\\s+OPEN -> HALF_OPEN\\s+2\\s+probe due\\n"
                        + "\\s+2026-11-29T11:57:00Z\\s+3m\\s+CLOSED -> OPEN\\s+1\\s+5 in a row\\n");
        JsonNode breaker = Json.MAPPER.readTree(json.out()).get("breakers").get("email-provider");
        assertThat(breaker.get("state").asText()).isEqualTo("OPEN");
        assertThat(breaker.get("openForSeconds").asLong()).isEqualTo(180);
        assertThat(breaker.get("openUntil").asText())
                .isEqualTo(CliRig.NOW.plusSeconds(40).toString());
        assertThat(breaker.get("history"))
                .extracting(h -> h.get("token").asLong())
                .containsExactly(3L, 2L, 1L);
        assertThat(breaker.at("/history/0/from").asText()).isEqualTo("HALF_OPEN");
        assertThat(breaker.at("/history/0/at").asText()).isEqualTo(failedAt.toString());
        assertThat(breaker.at("/history/2/reason").asText()).isEqualTo("5 in a row");
    }

    @Test
    void aNeverOpenedBreakerIsClosed() {
        CliRig.Run run = rig.run("stats");

        assertThat(run.out())
                .containsPattern("email-provider\\s+CLOSED\\s+-\\s+-\\s+-\\s+0")
                .doesNotContain("History of");
    }

    @Test
    void aQueueOutsideTheRoutesIsMeasuredThroughItsRedrivePolicyAndJsonHasTheSameFigures() throws Exception {
        rig.env.remove(Settings.ROUTES);

        CliRig.Run run = rig.run("stats", "--queue", CliRig.QUEUE, "--since", "2d", "--json");

        assertThat(run.exitCode()).isZero();
        JsonNode route = Json.MAPPER.readTree(run.out()).get("routes").get(0);
        assertThat(route.get("deadLetterQueue").asText()).isEqualTo("order-placed-email-dlq");
        assertThat(route.at("/deadLetterDepth/visible").asInt()).isEqualTo(3);
        assertThat(route.get("oldestUnresolvedAgeSeconds").asLong())
                .isEqualTo(Duration.ofHours(30).toSeconds());
        assertThat(route.at("/arrivalsByClass/TRANSIENT").asInt()).isEqualTo(2);
        assertThat(Json.MAPPER
                        .readTree(run.out())
                        .at("/replays/TRANSIENT/successRate")
                        .asDouble())
                .isEqualTo(0.75);
    }

    @Test
    void withoutRoutesOrAQueueItSaysWhatIsMissing() {
        rig.env.remove(Settings.ROUTES);

        CliRig.Run run = rig.run("stats");

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err())
                .isEqualTo("redrive stats: no routes configured: set REDRIVE_ROUTES (or "
                        + "--routes), or pass --queue NAME\n");
    }

    /** Issue 39: a mistyped queue suggests the route's; the DLQ's own name stands for its route. */
    @Test
    void aMistypedQueueIsAnErrorAndTheDeadLetterQueuesNameStandsForItsRoute() {
        CliRig.Run typo = rig.run("stats", "--queue", "order-placed-emial");
        CliRig.Run dlq = rig.run("stats", "--queue", CliRig.QUEUE + "-dlq");

        assertThat(typo.exitCode()).as(typo.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err())
                .startsWith("redrive stats: unknown queue 'order-placed-emial': did you mean 'order-placed-email'?");
        assertThat(dlq.exitCode()).as(dlq.err()).isZero();
        assertThat(dlq.err()).contains(CliRig.QUEUE + "-dlq is the dead-letter queue of " + CliRig.QUEUE);
        assertThat(dlq.out()).contains("confirmation-email: " + CliRig.QUEUE + " -> " + CliRig.QUEUE + "-dlq");
    }
}
