package dev.redrive.functions.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.testing.localaws.LocalAws;
import io.quarkus.test.common.DevServicesContext;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The packaged artifact running the dead-letter sweeper, invoked with the event the schedule sends (read as a plain
 * map: Quarkus' mapper would drop {@code detail-type} from a ScheduledEvent).
 */
@QuarkusIntegrationTest
@TestProfile(SweeperProfile.class)
@WithTestResource(ItResources.class)
class SweeperArtifactIT {

    DevServicesContext context;

    final LocalAws aws = LocalAws.shared();

    @Test
    void theScheduleEventQuarantinesEveryDeadLetterAndAnswersWithASummaryPerQueue() throws Exception {
        String dlq =
                aws.sqs().getQueueUrl(b -> b.queueName(ItResources.ORDERS_DLQ)).queueUrl();
        long failedAt = Instant.now().minusSeconds(60).toEpochMilli();
        String metadata = new DeadLetterMetadata(
                        "confirmation-email",
                        new IdempotencyKey("confirmation-email", "evt-unsupported").value(),
                        ItResources.ORDERS,
                        "m-unsupported",
                        "PERMANENT",
                        "UnsupportedCurrency",
                        "currency XYZ is not supported",
                        null,
                        1,
                        failedAt,
                        failedAt)
                .toJson();
        aws.sqs()
                .sendMessage(b -> b.queueUrl(dlq)
                        .messageBody("{\"eventType\":\"OrderPlaced\",\"version\":2,\"eventId\":\"evt-unsupported\"}")
                        .messageAttributes(Map.of(
                                DeadLetterMetadata.ATTRIBUTE,
                                MessageAttributeValue.builder()
                                        .dataType("String")
                                        .stringValue(metadata)
                                        .build())));

        JsonNode summary;
        try (StandardOutput out = StandardOutput.capture()) {
            summary = new LambdaArtifact(context).invoke(Map.of("source", "redrive.schedule"));

            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(out.emfDocuments())
                            .as("this run's counts, which the replay success rate alarm sums")
                            .anySatisfy(doc -> {
                                assertThat(doc.has("ReplaysReturned")).isTrue();
                                assertThat(doc.get("Replayed").asDouble()).isZero();
                                assertThat(doc.get("ReplaysReturned").asDouble())
                                        .isZero();
                                assertThat(doc.get("_aws")
                                                .get("CloudWatchMetrics")
                                                .get(0)
                                                .get("Dimensions")
                                                .toString())
                                        .isEqualTo("[[]]");
                            }));
        }

        assertThat(summary.get(ItResources.ORDERS_DLQ)).isNotNull();
        assertThat(summary.get(ItResources.ORDERS_DLQ).get("quarantined").asInt())
                .isEqualTo(1);
        assertThat(summary.get(ItResources.ORDERS_DLQ).get("skippedLeaseHeld").asBoolean())
                .isFalse();
        assertThat(aws.dynamoDb().scan(b -> b.tableName(ItResources.QUARANTINE)).items())
                .isNotEmpty();
    }
}
