package dev.redrive.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.infra.monitoring.RedriveMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The alarms read custom metrics by name; the functions emit them as EMF. infra depends on nothing of ours, so the
 * names are checked against the functions' source: an alarm on a metric nobody emits never fires.
 */
class MetricNamesMatchTheFunctionsTest {

    private static final Path SWEEPER_METRICS = Path.of(
            "..", "functions", "src", "main", "java", "dev", "redrive", "functions", "sweeper", "SweeperMetrics.java");

    @Test
    void everySweeperMetricAnAlarmReadsIsEmittedByTheSweeper() throws IOException {
        String source = Files.readString(SWEEPER_METRICS);

        for (String name : List.of(
                RedriveMetrics.REPLAYS_SENT,
                RedriveMetrics.REPLAYS_RETURNED,
                RedriveMetrics.OLDEST_UNRESOLVED_QUARANTINE_AGE)) {
            assertThat(source).as(name).contains("\"" + name + "\"");
        }
        assertThat(RedriveMetrics.NAMESPACE).isEqualTo("Redrive");
    }
}
