package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerTransition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The breakers' EMF: by Dependency, transitions by the state entered, the longest open time of a refusal. */
class BreakerMetricsTest {

    final List<String> lines = new ArrayList<>();
    final BreakerMetrics metrics = new BreakerMetrics(new EmfOutput(lines::add));
    final ObjectMapper json = new ObjectMapper();
    static final Instant T0 = Instant.parse("2026-12-04T02:00:00Z");

    @Test
    void anInvocationsRefusalsProbesAndTransitionsAreExportedOnceByDependency() throws Exception {
        metrics.transitioned("email-provider", new BreakerTransition(1, T0, Status.CLOSED, Status.OPEN, "down"));
        metrics.refused("email-provider", Duration.ofSeconds(4));
        metrics.refused("email-provider", Duration.ofSeconds(95));
        metrics.refused("email-provider", Duration.ofSeconds(30));
        metrics.probed("email-provider", false);
        metrics.transitioned(
                "email-provider", new BreakerTransition(3, T0, Status.HALF_OPEN, Status.OPEN, "the probe failed"));

        metrics.flush();
        metrics.flush();

        assertThat(lines).hasSize(2);
        JsonNode plain = json.readTree(lines.get(0));
        assertThat(plain.get("Dependency").asText()).isEqualTo("email-provider");
        assertThat(plain.get("BreakerCallsRefused").asInt()).isEqualTo(3);
        assertThat(plain.get("BreakerOpenSeconds").asInt()).as("the longest").isEqualTo(95);
        assertThat(plain.get("BreakerProbesFailed").asInt()).isEqualTo(1);
        assertThat(plain.has("BreakerProbesSucceeded")).isFalse();
        JsonNode transitions = json.readTree(lines.get(1));
        assertThat(transitions.get("State").asText()).isEqualTo("OPEN");
        assertThat(transitions.get("BreakerTransitions").asInt()).isEqualTo(2);
    }

    @Test
    void nothingHappenedNothingIsWritten() {
        metrics.flush();

        assertThat(lines).isEmpty();
    }
}
