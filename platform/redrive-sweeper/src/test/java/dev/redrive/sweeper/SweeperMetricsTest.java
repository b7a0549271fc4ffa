package dev.redrive.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.core.sweeper.SweepReports;
import dev.redrive.lambda.EmfOutput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweeperMetricsTest {

    final List<String> lines = new ArrayList<>();
    final SweeperMetrics metrics = new SweeperMetrics(new EmfOutput(lines::add));
    final ObjectMapper json = new ObjectMapper();

    @Test
    void theAlarmedMetricsHaveNoDimensionsAndTheQueueFiguresNameTheirQueue() throws Exception {
        SweepReport report = new SweepReport(new Route("email", "orders", "orders-dlq"));
        Map<String, Long> byState = new LinkedHashMap<>();
        byState.put("QUARANTINED", 4L);
        byState.put("REPLAYED", 9L);

        metrics.export(List.of(report), Map.of(FailureClass.TRANSIENT, new ReplayStats.Totals(10, 1)));
        metrics.exportQueues(List.of(new SweeperMetrics.QueueFigures("orders-dlq", 7, report, byState)));

        JsonNode overall = doc("ReplaySuccessRate", null);
        assertThat(overall.get("ReplaySuccessRate").asDouble()).isEqualTo(0.9);
        assertThat(overall.get("_aws")
                        .get("CloudWatchMetrics")
                        .get(0)
                        .get("Dimensions")
                        .get(0))
                .isEmpty();
        assertThat(doc("OldestUnresolvedQuarantineAgeSeconds", null)).isNotNull();
        JsonNode queue = doc("DeadLetterQueueDepth", "DeadLetterQueue");
        assertThat(queue.get("DeadLetterQueueDepth").asDouble()).isEqualTo(7);
        assertThat(queue.get("DeadLetterQueue").asText()).isEqualTo("orders-dlq");
        assertThat(lines)
                .filteredOn(l -> l.contains("\"Quarantine\""))
                .hasSize(2)
                .anySatisfy(
                        l -> assertThat(l).contains("\"State\":\"REPLAYED\"").contains("\"Quarantine\":9.0"));
    }

    @Test
    void eachRunEmitsItsOwnReplaysSentAndReturnedWithoutDimensionsForTheWindowedSuccessRate() throws Exception {
        SweepReport email =
                SweepReports.replays(new Route("email", "orders", "orders-dlq"), FailureClass.TRANSIENT, 3, 1);
        SweepReport revenue =
                SweepReports.replays(new Route("revenue", "sales", "sales-dlq"), FailureClass.PERMANENT, 1, 0);

        // all-time totals that an early failure would dominate: the per-run counts do not come from them
        metrics.export(List.of(email, revenue), Map.of(FailureClass.TRANSIENT, new ReplayStats.Totals(1000, 900)));

        JsonNode run = doc("ReplaysReturned", null);
        assertThat(run.get("Replayed").asDouble()).isEqualTo(4);
        assertThat(run.get("ReplaysReturned").asDouble()).isEqualTo(1);
        assertThat(run.get("_aws")
                        .get("CloudWatchMetrics")
                        .get(0)
                        .get("Dimensions")
                        .get(0))
                .isEmpty();
    }

    private JsonNode doc(String metric, String dimension) throws Exception {
        for (String line : lines) {
            JsonNode n = json.readTree(line);
            if (n.has(metric) && (dimension == null || n.has(dimension))) {
                return n;
            }
        }
        throw new AssertionError("no " + metric + " in " + lines);
    }
}
