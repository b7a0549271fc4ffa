package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsumerMetricsTest {

    final ObjectMapper json = new ObjectMapper();
    final List<String> lines = new ArrayList<>();
    final ConsumerMetrics metrics = new ConsumerMetrics(new EmfOutput(lines::add));

    @Test
    void eachInvocationExportsWhatChangedAsEmbeddedMetricFormat() throws Exception {
        Instant now = Instant.parse("2026-11-29T10:00:00Z");
        FailureRecord schema =
                new FailureRecord(Classification.of(FailureClass.SCHEMA, "NotJson", "x"), 1, now, now, "q");
        metrics.effectLatency("email", Duration.ofMillis(40));
        metrics.effectLatency("email", Duration.ofMillis(60));
        metrics.record(
                "email",
                report(
                        new MessageOutcome.Applied("k1", 1, null),
                        new MessageOutcome.Applied("k2", 1, null),
                        new MessageOutcome.Duplicate("k1"),
                        new MessageOutcome.RetryLater("k3", Classification.of(FailureClass.TRANSIENT, "T", "t"), 3),
                        new MessageOutcome.DeadLettered(null, schema)));

        metrics.flush("email");

        assertThat(lines).hasSize(3);
        JsonNode plain = find("Processed");
        assertThat(plain.get("Processed").asDouble()).isEqualTo(2);
        assertThat(plain.get("Duplicates").asDouble()).isEqualTo(1);
        assertThat(plain.get("EffectLatency").asDouble()).isEqualTo(50.0);
        assertThat(plain.get("Consumer").asText()).isEqualTo("email");
        JsonNode cw = plain.get("_aws").get("CloudWatchMetrics").get(0);
        assertThat(cw.get("Namespace").asText()).isEqualTo("Redrive");
        assertThat(cw.get("Dimensions").get(0))
                .extracting(JsonNode::asText)
                .asList()
                .containsExactly("Consumer");
        JsonNode schemaDoc = documentWith("FailureClass", "SCHEMA");
        assertThat(schemaDoc.get("DeadLettered").asDouble()).isEqualTo(1);
        assertThat(schemaDoc.get("Failures").asDouble()).isEqualTo(1);
        assertThat(documentWith("FailureClass", "TRANSIENT").has("DeadLettered"))
                .isFalse();

        lines.clear();
        metrics.record("email", report(new MessageOutcome.Applied("k9", 1, null)));
        metrics.flush("email");

        assertThat(lines).as("only the delta of the second invocation").hasSize(1);
        assertThat(find("Processed").get("Processed").asDouble()).isEqualTo(1);
        assertThat(find("Processed").has("Duplicates")).isFalse();
    }

    @Test
    void aRetryDelayTheQueueDidNotTakeIsCounted() throws Exception {
        IncomingMessage m = new IncomingMessage("m-1", "r", "{}", Map.of(), 1, "q", null);
        BatchReport report = new BatchReport(
                List.of(new BatchReport.Entry(
                        m,
                        new MessageOutcome.RetryLater("k", Classification.of(FailureClass.TRANSIENT, "T", "t"), 30))),
                List.of("m-1"),
                List.of("m-1"));

        metrics.record("email", report);
        metrics.flush("email");

        assertThat(find("VisibilityNotChanged").get("VisibilityNotChanged").asDouble())
                .isEqualTo(1);
    }

    private JsonNode find(String metric) throws Exception {
        for (String line : lines) {
            JsonNode n = json.readTree(line);
            if (n.has(metric)) {
                return n;
            }
        }
        throw new AssertionError("no EMF document with " + metric + " in " + lines);
    }

    private JsonNode documentWith(String dimension, String value) throws Exception {
        for (String line : lines) {
            JsonNode n = json.readTree(line);
            if (value.equals(n.path(dimension).asText())) {
                return n;
            }
        }
        throw new AssertionError("no EMF document with " + dimension + "=" + value);
    }

    private static BatchReport report(MessageOutcome... outcomes) {
        List<BatchReport.Entry> entries = new ArrayList<>();
        for (int i = 0; i < outcomes.length; i++) {
            entries.add(new BatchReport.Entry(
                    new IncomingMessage("m" + i, "r", "{}", Map.of(), 1, "q", null), outcomes[i]));
        }
        return new BatchReport(entries, List.of());
    }
}
