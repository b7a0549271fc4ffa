package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweeperTest {

    private final TemplateView t = Synth.defaults();

    @Test
    void sweeperRunsFiveMinutesWithItsTablesArchiveKeyAndRetention() {
        String sweeper = t.function("dlq-sweeper");
        Map<String, Object> env = t.environment(sweeper);
        String key = t.resources("AWS::KMS::Key").keySet().iterator().next();

        assertThat(t.properties(sweeper).get("Timeout")).isEqualTo(300);
        assertThat(env)
                .containsEntry("REDRIVE_CLAIMS_TABLE", Map.of("Ref", t.table("ClaimsTable")))
                .containsEntry("REDRIVE_SWEEPER_QUARANTINE_TABLE", Map.of("Ref", t.table("QuarantineTable")))
                .containsEntry("REDRIVE_SWEEPER_CONTROL_TABLE", Map.of("Ref", t.table("ControlTable")))
                .containsEntry("REDRIVE_SWEEPER_ARCHIVE_KMS_KEY_ID", Map.of("Fn::GetAtt", List.of(key, "Arn")))
                .containsEntry("REDRIVE_SWEEPER_RETENTION", "P7D");
        assertThat(String.valueOf(env.get("REDRIVE_SWEEPER_ARCHIVE_BUCKET"))).contains("ArchiveBucket");
    }

    @Test
    void theSweeperIsToldTheReplayPaceEvenAtItsDefault() {
        assertThat(t.environment(t.function("dlq-sweeper")))
                .containsEntry("REDRIVE_REPLAYS_RATE_PER_SECOND", "10.0")
                .containsEntry("REDRIVE_REPLAYS_HORIZON", "PT15M")
                .doesNotContainKey("REDRIVE_REPLAYS_LANE_RATES");
    }

    @Test
    void aReplayPaceSetInTheContextReachesTheSweeperAndABadOneIsRefusedByName() {
        TemplateView paced = Synth.template(
                Map.of("replayRate", "4", "replayLaneRates", "email-provider=2.5", "replayHorizon", "PT5M"));

        assertThat(paced.environment(paced.function("dlq-sweeper")))
                .containsEntry("REDRIVE_REPLAYS_RATE_PER_SECOND", "4.0")
                .containsEntry("REDRIVE_REPLAYS_LANE_RATES", "email-provider=2.5")
                .containsEntry("REDRIVE_REPLAYS_HORIZON", "PT5M");
        assertThatThrownBy(() -> Synth.stack(Map.of("replayHorizon", "PT20M")))
                .hasMessageContaining("the replay horizon must be between 0 and PT15M")
                .hasMessageContaining("-c replayHorizon=");
        assertThatThrownBy(() -> Synth.stack(Map.of("replayLaneRates", "email-provider")))
                .hasMessageContaining("'email-provider' is not one");
    }

    @Test
    void theRoutesDocumentIsWrittenToAVersionedKmsEncryptedBucketTheSweeperMayReadAndIsToldOf() {
        String bucket = t.resources("AWS::S3::Bucket").keySet().stream()
                .filter(id -> id.startsWith("SweeperRoutesBucket"))
                .findFirst()
                .orElseThrow();
        Map<String, Object> props = map(t.resources("AWS::S3::Bucket").get(bucket), "Properties");
        assertThat(map(props, "VersioningConfiguration")).containsEntry("Status", "Enabled");
        assertThat(String.valueOf(props.get("BucketEncryption")))
                .contains("aws:kms")
                .contains("KMSMasterKeyID");
        assertThat(map(props, "PublicAccessBlockConfiguration"))
                .containsEntry("BlockPublicAcls", true)
                .containsEntry("RestrictPublicBuckets", true);

        var deployments = t.resources("Custom::CDKBucketDeployment");
        assertThat(deployments).hasSize(1);
        Map<String, Object> deployment = map(deployments.values().iterator().next(), "Properties");
        assertThat(deployment.get("DestinationBucketName")).isEqualTo(Map.of("Ref", bucket));

        String sweeper = t.function("dlq-sweeper");
        assertThat(String.valueOf(t.environment(sweeper).get("REDRIVE_ROUTES")))
                .startsWith("{Fn::Join=[, [s3://, {Ref=" + bucket + "}, /routes.json]]}");
        assertThat(t.environment(sweeper)).doesNotContainKey("REDRIVE_SWEEPER_ROUTES");
        assertThat(t.statementsOf(sweeper)).anyMatch(s -> s.allows("s3:GetObject") && s.on(bucket));
        assertThat(t.statementsOf(sweeper)).anyMatch(s -> s.allows("kms:Decrypt"));
    }

    @Test
    void theConsumersAreToldTheirContractsPointersAndTheDocumentDeclaresBothConsumers() {
        for (String consumer : List.of("confirmation-email", "revenue-analytics")) {
            assertThat(t.environment(t.function(consumer)))
                    .containsEntry("REDRIVE_CONTRACT_KEY_POINTER", "/eventId")
                    .containsEntry("REDRIVE_CONTRACT_EVENT_TYPE_POINTER", "/eventType")
                    .containsEntry("REDRIVE_CONTRACT_VERSION_POINTER", "/version");
        }
    }

    @Test
    void scheduleInvokesTheSweeperEveryFiveMinutesWithRetriesAndADeadLetterQueue() {
        var schedules = t.resources("AWS::Scheduler::Schedule");
        assertThat(schedules)
                .as("the sweeper's, the outbox sweep's, the reconciliation's")
                .hasSize(3);
        Map<String, Object> props = map(
                schedules.get(schedules.keySet().stream()
                        .filter(id -> id.startsWith("Sweeper"))
                        .findFirst()
                        .orElseThrow()),
                "Properties");
        Map<String, Object> target = map(props, "Target");

        assertThat(props.get("ScheduleExpression")).isEqualTo("rate(5 minutes)");
        assertThat(props.get("State")).isEqualTo("ENABLED");
        assertThat(target.get("Arn")).isEqualTo(Map.of("Ref", t.alias(t.function("dlq-sweeper"))));
        assertThat(target.get("Input")).isEqualTo("{\"source\":\"redrive.schedule\"}");
        assertThat(map(target, "RetryPolicy")).containsEntry("MaximumRetryAttempts", 2);
        assertThat(map(target, "DeadLetterConfig").get("Arn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of(t.queue("redrive-sweeper-schedule-dlq"), "Arn")));
        String role = (String) ((List<?>) map(target, "RoleArn").get("Fn::GetAtt")).get(0);
        assertThat(t.statementsOfRole(role))
                .anyMatch(s -> s.allows("lambda:InvokeFunction") && s.on(t.alias(t.function("dlq-sweeper"))));
    }

    @Test
    void lambdaDoesNotRetryAFailedSweepItselfAndDropsStaleRunsIntoTheScheduleDeadLetterQueue() {
        var configs = t.resources("AWS::Lambda::EventInvokeConfig");
        assertThat(configs).as("one per scheduled function").hasSize(3);
        Map<String, Object> config = map(
                configs.get(configs.keySet().stream()
                        .filter(id -> id.startsWith("Sweeper"))
                        .findFirst()
                        .orElseThrow()),
                "Properties");

        assertThat(config.get("FunctionName")).isEqualTo(Map.of("Ref", t.function("dlq-sweeper")));
        assertThat(config.get("Qualifier"))
                .as("the settings of what the schedule invokes, the alias (they are per qualifier)")
                .isEqualTo(Map.of(
                        "Fn::Select",
                        List.of(
                                7,
                                Map.of("Fn::Split", List.of(":", Map.of("Ref", t.alias(t.function("dlq-sweeper"))))))));
        assertThat(config.get("MaximumRetryAttempts")).isEqualTo(0);
        assertThat(config.get("MaximumEventAgeInSeconds")).isEqualTo(300);
        assertThat(map(map(config, "DestinationConfig"), "OnFailure").get("Destination"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of(t.queue("redrive-sweeper-schedule-dlq"), "Arn")));
        assertThat(t.statementsOf(t.function("dlq-sweeper")))
                .anyMatch(s -> s.allows("sqs:SendMessage") && s.on(t.queue("redrive-sweeper-schedule-dlq")));
    }
}
