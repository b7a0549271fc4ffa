package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

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
        TemplateView paced = new TemplateView(Template.fromStack(Synth.stack(
                Map.of("replayRate", "4", "replayLaneRates", "email-provider=2.5", "replayHorizon", "PT5M"))));

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
    void routesNameEveryConsumerWithItsSourceAndDeadLetterQueueUrlAndNothingElse() {
        String routes = String.valueOf(t.environment(t.function("dlq-sweeper")).get("REDRIVE_SWEEPER_ROUTES"));

        for (String consumer : List.of("confirmation-email", "revenue-analytics")) {
            String source = t.queue("redrive-" + consumer);
            String dlq = t.queue("redrive-" + consumer + "-dlq");
            assertThat(routes)
                    .contains("{\"consumer\":\"" + consumer + "\",\"sourceQueueUrl\":\", {Ref=" + source
                            + "}, \",\"deadLetterQueueUrl\":\", {Ref=" + dlq + "}, \"}");
        }
        assertThat(routes).startsWith("{Fn::Join=[, [[{").doesNotContain("Arn");
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
        assertThat(target.get("Arn")).isEqualTo(Map.of("Fn::GetAtt", List.of(t.function("dlq-sweeper"), "Arn")));
        assertThat(target.get("Input")).isEqualTo("{\"source\":\"redrive.schedule\"}");
        assertThat(map(target, "RetryPolicy")).containsEntry("MaximumRetryAttempts", 2);
        assertThat(map(target, "DeadLetterConfig").get("Arn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of(t.queue("redrive-sweeper-schedule-dlq"), "Arn")));
        String role = (String) ((List<?>) map(target, "RoleArn").get("Fn::GetAtt")).get(0);
        assertThat(t.statementsOfRole(role))
                .anyMatch(s -> s.allows("lambda:InvokeFunction") && s.on(t.function("dlq-sweeper")));
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
        assertThat(config.get("Qualifier")).isEqualTo("$LATEST");
        assertThat(config.get("MaximumRetryAttempts")).isEqualTo(0);
        assertThat(config.get("MaximumEventAgeInSeconds")).isEqualTo(300);
        assertThat(map(map(config, "DestinationConfig"), "OnFailure").get("Destination"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of(t.queue("redrive-sweeper-schedule-dlq"), "Arn")));
        assertThat(t.statementsOf(t.function("dlq-sweeper")))
                .anyMatch(s -> s.allows("sqs:SendMessage") && s.on(t.queue("redrive-sweeper-schedule-dlq")));
    }
}
