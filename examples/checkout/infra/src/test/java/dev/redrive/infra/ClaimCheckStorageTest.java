package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.cdk.consumer.ConsumerEnvironment;
import dev.redrive.cdk.consumer.IdempotentConsumer;
import dev.redrive.cdk.storage.Buckets;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.core.payload.ClaimCheckCleanup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Payloads over SQS's 1 MiB travel by claim check: a bucket of their own that keeps each payload for as long as the
 * claims count (so every redelivery, replay and the archive find it), read and written by the consumers and the
 * sweeper and deleted by none; and queues that take SQS's whole 1 MiB.
 */
class ClaimCheckStorageTest {

    private final TemplateView t = Synth.defaults();

    private String claimCheckBucket() {
        List<String> ids = t.resources("AWS::S3::Bucket").keySet().stream()
                .filter(id -> id.startsWith("ClaimCheckBucket"))
                .toList();
        assertThat(ids).hasSize(1);
        return ids.get(0);
    }

    @Test
    void payloadsExpireAfterTheClaimTtlRoundedUpToWholeDays() {
        String ttl = String.valueOf(
                t.environment(t.function(CheckoutNames.CONFIRMATION_EMAIL)).get(ConsumerEnvironment.CLAIMS_RECORD_TTL));
        long seconds = Duration.parse(ttl).toSeconds();
        long days = (seconds + 86_399) / 86_400;

        List<?> rules = (List<?>)
                map(t.properties(claimCheckBucket()), "LifecycleConfiguration").get("Rules");

        assertThat(rules).singleElement().satisfies(r -> {
            Map<String, Object> rule = TemplateView.cast(r);
            assertThat(rule.get("Id")).isEqualTo(Buckets.CLAIM_CHECK_EXPIRY_RULE);
            assertThat(rule.get("Status")).isEqualTo("Enabled");
            assertThat(((Number) rule.get("ExpirationInDays")).longValue())
                    .as("the claim TTL %s in whole days", ttl)
                    .isEqualTo(days)
                    .isGreaterThan(0);
        });
    }

    @Test
    void theConsumersAndTheSweeperAreToldTheBucketAndMayReadAndCheckInButNotDelete() {
        String bucket = claimCheckBucket();
        for (String handler :
                List.of(CheckoutNames.CONFIRMATION_EMAIL, CheckoutNames.REVENUE_ANALYTICS, Handlers.DLQ_SWEEPER)) {
            String function = t.function(handler);
            assertThat(String.valueOf(t.environment(function).get(ConsumerEnvironment.CLAIM_CHECKS_BUCKET)))
                    .as(handler)
                    .contains(bucket);
            List<TemplateView.Statement> onBucket =
                    t.statementsOf(function).stream().filter(s -> s.on(bucket)).toList();
            assertThat(onBucket).as(handler).isNotEmpty();
            assertThat(onBucket).as(handler).anyMatch(s -> s.allows("s3:GetObject"));
            assertThat(onBucket).as(handler).anyMatch(s -> s.allows("s3:PutObject"));
            assertThat(onBucket).as(handler).noneMatch(s -> s.allows("s3:DeleteObject"));
        }
    }

    /**
     * Without {@code s3:ListBucket}, S3 answers a GetObject of a missing key with 403 AccessDenied, not 404 (S3's
     * GetObject documentation, "Permissions"), and a payload that is gone cannot be told from one this role may not
     * read. Every function that reads claim checks may list the bucket, and only the bucket: the statement names the
     * bucket itself, never its objects or any other bucket.
     */
    @Test
    void everyFunctionThatReadsClaimChecksMayListTheBucketSoAGonePayloadIsA404() {
        String bucket = claimCheckBucket();
        for (String handler :
                List.of(CheckoutNames.CONFIRMATION_EMAIL, CheckoutNames.REVENUE_ANALYTICS, Handlers.DLQ_SWEEPER)) {
            List<TemplateView.Statement> listing = t.statementsOf(t.function(handler)).stream()
                    .filter(s -> s.on(bucket) && s.allows("s3:ListBucket"))
                    .toList();
            assertThat(listing)
                    .as("%s: s3:ListBucket on the claim-check bucket itself, in a statement of its own", handler)
                    .singleElement()
                    .satisfies(s -> {
                        assertThat(s.actions()).containsExactly("s3:ListBucket");
                        assertThat(s.resources())
                                .singleElement()
                                .satisfies(r -> assertThat(String.valueOf(r))
                                        .contains(bucket)
                                        .doesNotContain("/*"));
                    });
        }
    }

    @Test
    void everyConsumerQueueAndDeadLetterQueueTakesSqsWholeMebibyte() {
        var queues = t.resources("AWS::SQS::Queue").entrySet().stream()
                // the consumers' queues; the failure records of schedules and of the relay's stream are small
                .filter(e -> !e.getKey().startsWith("Sweeper") && !e.getKey().startsWith("CheckoutProducer"))
                .toList();
        assertThat(queues)
                .hasSizeGreaterThanOrEqualTo(4)
                .allSatisfy(e -> assertThat(map(e.getValue(), "Properties").get("MaximumMessageSize"))
                        .as(e.getKey())
                        .isEqualTo(IdempotentConsumer.MAX_MESSAGE_BYTES)
                        .isEqualTo(1_048_576));
    }

    @Test
    void byDefaultTheConsumersLeavePayloadsToTheLifecycleRule() {
        for (String handler : List.of(CheckoutNames.CONFIRMATION_EMAIL, CheckoutNames.REVENUE_ANALYTICS)) {
            assertThat(t.environment(t.function(handler)))
                    .containsEntry(ConsumerEnvironment.CLAIM_CHECKS_CLEANUP, ClaimCheckCleanup.LIFECYCLE.name());
        }
    }

    @Test
    void deletingAfterApplyIsTheConsumersAloneAndOnlyWhenAsked() {
        TemplateView afterApply = Synth.template(Map.of("claimCheckCleanup", "AFTER_APPLY", "prefix", "afterapply"));
        String bucket = afterApply.resources("AWS::S3::Bucket").keySet().stream()
                .filter(id -> id.startsWith("ClaimCheckBucket"))
                .findFirst()
                .orElseThrow();

        for (String handler : List.of(CheckoutNames.CONFIRMATION_EMAIL, CheckoutNames.REVENUE_ANALYTICS)) {
            String function = afterApply.function(handler);
            assertThat(afterApply.environment(function))
                    .containsEntry(ConsumerEnvironment.CLAIM_CHECKS_CLEANUP, ClaimCheckCleanup.AFTER_APPLY.name());
            assertThat(afterApply.statementsOf(function))
                    .as(handler)
                    .anyMatch(s -> s.on(bucket) && s.allows("s3:DeleteObject"));
        }
        assertThat(afterApply.statementsOf(afterApply.function(Handlers.DLQ_SWEEPER)))
                .noneMatch(s -> s.allows("s3:DeleteObject") && s.on(bucket));
        assertThatThrownBy(() -> Synth.stack(Map.of("claimCheckCleanup", "SOMETIMES", "prefix", "badcleanup")))
                .hasMessageContaining("claimCheckCleanup=SOMETIMES")
                .hasMessageContaining("AFTER_APPLY");
    }

    @Test
    void theBucketIsAStackOutputForTheCliAndTheProducers() {
        t.template().hasOutput("ClaimCheckBucketName", Map.of());
    }
}
