package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The block of settings the local run prints: what it exports and how it quotes. That the settings work is
 * LocalRunPracticeTest's (in this module's dev.redrive.cli package: it runs the CLI with them against a running local run).
 */
class OperatorSettingsTest {

    static final Map<String, String> AWS = Map.of(
            "AWS_REGION", "us-east-1",
            "AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:40001",
            "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:40002",
            "AWS_ENDPOINT_URL_S3", "http://127.0.0.1:40003");

    @Test
    void theBlockExportsLocalAwsAndTheSweepersNamesRoutesAndPaceButNotItsOtherSettings() {
        Map<String, String> sweeper = new LinkedHashMap<>();
        sweeper.put("REDRIVE_SWEEPER_QUARANTINE_TABLE", "Redrive-Quarantine-1");
        sweeper.put("REDRIVE_SWEEPER_CONTROL_TABLE", "Redrive-Control-1");
        sweeper.put("REDRIVE_SWEEPER_ARCHIVE_BUCKET", "redrive-archive-1");
        sweeper.put("REDRIVE_ROUTES", "{\"routes\":[{\"consumer\":\"it's\"}]}");
        sweeper.put("REDRIVE_REPLAYS_PER_SECOND", "10");
        sweeper.put("REDRIVE_SWEEPER_BATCH", "25");

        OperatorSettings settings = OperatorSettings.of(AWS, sweeper).with("REDRIVE_CLAIMS_TABLE", "Redrive-Claims-1");

        assertThat(settings.environment())
                .containsEntry("REDRIVE_SWEEPER_QUARANTINE_TABLE", "Redrive-Quarantine-1")
                .containsEntry("REDRIVE_CLAIMS_TABLE", "Redrive-Claims-1")
                .containsEntry("REDRIVE_REPLAYS_PER_SECOND", "10")
                .containsEntry("AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:40001")
                .doesNotContainKey("REDRIVE_SWEEPER_BATCH");
        List<String> lines = settings.block().lines().toList();
        assertThat(lines.get(0)).isEqualTo(OperatorSettings.BEGIN);
        assertThat(lines.get(lines.size() - 1)).isEqualTo(OperatorSettings.END);
        assertThat(lines)
                .contains("export REDRIVE_ROUTES='{\"routes\":[{\"consumer\":\"it'\\''s\"}]}'")
                .contains("#   bin/redrive console")
                .contains("#   aws --endpoint-url http://127.0.0.1:40001 sqs list-queues")
                .contains("#   aws --endpoint-url http://127.0.0.1:40002 dynamodb scan --table-name "
                        + "Redrive-Quarantine-1 --select COUNT")
                .contains("#   aws --endpoint-url http://127.0.0.1:40003 s3 ls s3://redrive-archive-1 --recursive");
    }

    @Test
    void aValueTheSweeperAlreadyHasIsNotReplaced() {
        OperatorSettings settings = OperatorSettings.of(AWS, Map.of("REDRIVE_CLAIMS_TABLE", "sweepers"))
                .with("REDRIVE_CLAIMS_TABLE", "consumers");

        assertThat(settings.environment()).containsEntry("REDRIVE_CLAIMS_TABLE", "sweepers");
    }
}
