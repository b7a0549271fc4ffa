package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

@LocalAwsTest(resetBeforeEach = true)
class BackoffCommandTest {

    CliRig rig;

    @BeforeEach
    void rig(LocalAws aws) {
        rig = new CliRig(aws);
    }

    @Test
    void explainsEachAttemptsCappedExpectedAndCumulativeWorstCase() {
        CliRig.Run run = rig.run(
                "backoff",
                "--base",
                "2s",
                "--multiplier",
                "2",
                "--max-delay",
                "15m",
                "--max-receive-count",
                "4",
                "--visibility-timeout",
                "5m",
                "--function-timeout",
                "30s");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("Backoff: base 2s, multiplier 2.0, max delay 15m; maxReceiveCount 4")
                .containsPattern("1\\s+2s\\s+1s\\s+5m\\n")
                .containsPattern("2\\s+4s\\s+2s\\s+10m\\n")
                .containsPattern("4\\s+16s\\s+8s\\s+20m\\n")
                .contains("at most 20m after it was first received")
                .contains("No warnings.");
    }

    @Test
    void aSeedDrawsAReproducibleSampleWithMulberry32() throws Exception {
        CliRig.Run first = rig.run("backoff", "--seed", "42", "--max-receive-count", "6", "--json");
        CliRig.Run second = rig.run("backoff", "--seed", "42", "--max-receive-count", "6", "--json");

        assertThat(first.out()).isEqualTo(second.out());
        FullJitterBackoff backoff = new FullJitterBackoff(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(15));
        Mulberry32 rng = new Mulberry32(42);
        JsonNode attempts = Json.MAPPER.readTree(first.out()).get("attempts");
        assertThat(attempts).hasSize(6);
        int total = 0;
        for (int n = 1; n <= 6; n++) {
            int expected = backoff.delaySeconds(n, rng);
            total += expected;
            assertThat(attempts.get(n - 1).get("sampleSeconds").asInt()).isEqualTo(expected);
            assertThat(attempts.get(n - 1).get("sampleCumulativeSeconds").asInt())
                    .isEqualTo(total);
        }
        assertThat(rig.run("backoff", "--seed", "42").out()).contains("SAMPLE (seed 42)", "SAMPLE SO FAR");
    }

    @Test
    void warnsWhenRetriesOutlastRetentionAndWhenVisibilityIsUnderSixTimesTheFunctionTimeout() {
        CliRig.Run run = rig.run(
                "backoff",
                "--base",
                "1m",
                "--multiplier",
                "3",
                "--max-delay",
                "12h",
                "--max-receive-count",
                "10",
                "--retention",
                "1d",
                "--visibility-timeout",
                "30s",
                "--function-timeout",
                "15s");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("WARNING: with maxReceiveCount 10 the worst case before the DLQ")
                .contains("exceeds the queue's retention (1d)")
                .contains("WARNING: the visibility timeout (30s) is under 6x the function timeout (15s x 6 = 1m 30s)")
                .doesNotContain("No warnings.");
    }

    @Test
    void readsMaxReceiveCountAndVisibilityFromTheQueueAndSaysWhatItDidNotReport(LocalAws aws) throws Exception {
        aws.sqs()
                .setQueueAttributes(b ->
                        b.queueUrl(rig.queue.url()).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "45")));
        rig.env.put(Settings.BACKOFF_BASE, "5s");

        CliRig.Run json = rig.run("backoff", "--queue", CliRig.QUEUE, "--json");
        CliRig.Run text = rig.run("backoff", "--queue", CliRig.QUEUE);

        JsonNode n = Json.MAPPER.readTree(json.out());
        assertThat(n.get("maxReceiveCount").asInt())
                .as("from the redrive policy")
                .isEqualTo(3);
        assertThat(n.get("visibilityTimeoutSeconds").asLong()).isEqualTo(45);
        assertThat(n.get("baseSeconds").asDouble())
                .as("from REDRIVE_BACKOFF_BASE")
                .isEqualTo(5.0);
        // ElasticMQ reports no MessageRetentionPeriod: the SQS default is assumed, and the output says so.
        assertThat(n.get("retentionSeconds").asLong())
                .isEqualTo(Duration.ofDays(4).toSeconds());
        assertThat(text.out())
                .contains("maxReceiveCount 3, retention 4d, visibility timeout 45s (queue "
                        + "order-placed-email; it reports no retention: the SQS default 4d is assumed)");
    }

    @Test
    void impossibleSettingsAreUsageErrors() {
        CliRig.Run multiplier = rig.run("backoff", "--multiplier", "0.5");
        CliRig.Run maxDelay = rig.run("backoff", "--max-delay", "13h");
        CliRig.Run duration = rig.run("backoff", "--base", "2 fortnights");

        assertThat(multiplier.exitCode()).isEqualTo(2);
        assertThat(multiplier.err())
                .isEqualTo("redrive backoff: backoff settings: multiplier must be a finite number " + ">= 1: 0.5\n");
        assertThat(maxDelay.exitCode()).isEqualTo(2);
        assertThat(maxDelay.err()).contains("maxDelay must be between base and 12h");
        assertThat(duration.exitCode()).isEqualTo(2);
        assertThat(duration.err().lines()).singleElement().asString().contains("'2 fortnights' is not a duration");
    }

    /** Issue 39: a mistyped queue is a usage error that suggests the route's queue, not "SQS queue not found". */
    @Test
    void aMistypedQueueIsAnErrorThatSuggestsTheKnownQueue() {
        CliRig.Run run = rig.run("backoff", "--queue", "order-placed-emial");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err().lines())
                .singleElement()
                .asString()
                .startsWith("redrive backoff: unknown queue 'order-placed-emial': did you mean 'order-placed-email'?");
    }
}
