package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.aws.clients.EffectClients;
import dev.redrive.aws.clients.PlatformClients;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.payload.ClaimCheckCleanup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The settings a function's {@code REDRIVE_*} environment gives, and their defaults. */
class RedriveSettingsTest {

    @Test
    void anEmptyEnvironmentGivesTheCoresOwnDefaults() {
        RedriveSettings s = RedriveSettings.fromEnvironment(Map.of());

        assertThat(s.claims().table()).isEqualTo("redrive-claims");
        assertThat(s.claims().leasePolicy()).isEqualTo(LeasePolicy.DEFAULT);
        assertThat(s.claims().retention().requiredTtl())
                .as("4 + 14 + 7 + 1 days")
                .isEqualTo(Duration.ofDays(26));
        assertThat(s.backoff().policy().base()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.backoff().policy().maxDelay()).isEqualTo(Duration.ofMinutes(15));
        assertThat(s.backoff().seed()).isEmpty();
        assertThat(s.batch()).isEqualTo(new RedriveSettings.Batch(10, Duration.ofSeconds(3), 10));
        assertThat(s.deadLetters().queueUrl()).isEmpty();
        assertThat(s.claimChecks().cleanup()).isEqualTo(ClaimCheckCleanup.LIFECYCLE);
        assertThat(s.claimChecks().bucket()).isEmpty();
        assertThat(s.effects()).isEqualTo(EffectClients.Settings.DEFAULT);
        assertThat(s.aws().maxAttempts()).isEqualTo(PlatformClients.DEFAULT_MAX_ATTEMPTS);
        assertThat(s.breakers().table()).isEqualTo("redrive-control");
        assertThat(s.breakers().byDependency()).isEmpty();
        assertThat(s.breakers().of("anything"))
                .isEqualTo(new RedriveSettings.Breaker(true, BreakerPolicy.DEFAULT, Duration.ofSeconds(5)));
        assertThat(s.build().version()).as("no version known").isEqualTo("unknown");
    }

    @Test
    void theBuildVersionIsTheConfiguredOneElseThePublishedFunctionVersionElseUnknown() {
        assertThat(RedriveSettings.fromEnvironment(
                                Map.of("REDRIVE_BUILD_VERSION", " 1.5.0+abc123 ", "AWS_LAMBDA_FUNCTION_VERSION", "12"))
                        .build())
                .isEqualTo(new RedriveSettings.Build("1.5.0+abc123"));
        assertThat(RedriveSettings.fromEnvironment(Map.of("AWS_LAMBDA_FUNCTION_VERSION", "12"))
                        .build()
                        .version())
                .isEqualTo("12");
        assertThat(RedriveSettings.fromEnvironment(Map.of("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST"))
                        .build()
                        .version())
                .as("$LATEST names no build")
                .isEqualTo("unknown");
        assertThat(RedriveSettings.fromEnvironment(
                                Map.of("REDRIVE_BUILD_VERSION", "  ", "AWS_LAMBDA_FUNCTION_VERSION", "3"))
                        .build()
                        .version())
                .as("a blank variable is unset")
                .isEqualTo("3");
    }

    @Test
    void aBuildVersionTooLongOrOverSeveralLinesIsRefusedSayingWhy() {
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(Map.of("REDRIVE_BUILD_VERSION", "v".repeat(129))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("REDRIVE_BUILD_VERSION is 129 characters long; at most 128");
        assertThat(RedriveSettings.fromEnvironment(Map.of("REDRIVE_BUILD_VERSION", "v".repeat(128)))
                        .build()
                        .version())
                .hasSize(128);
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(Map.of("REDRIVE_BUILD_VERSION", "v1\nv2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("REDRIVE_BUILD_VERSION holds a control character");
    }

    @Test
    void everyVariableIsReadByItsPropertysName() {
        RedriveSettings s = RedriveSettings.fromEnvironment(Map.ofEntries(
                Map.entry("REDRIVE_CLAIMS_TABLE", "claims"),
                Map.entry("REDRIVE_CLAIMS_RECORD_TTL", "P60D"),
                Map.entry("REDRIVE_CLAIMS_SOURCE_RETENTION", "4d"),
                Map.entry("REDRIVE_CLAIMS_DEAD_LETTER_RETENTION", "P14D"),
                Map.entry("REDRIVE_SWEEPER_RETENTION", "P30D"),
                Map.entry("REDRIVE_CLAIMS_CLOCK_SKEW_MARGIN", "3"),
                Map.entry("REDRIVE_CLAIMS_MINIMUM_LEASE", "PT20S"),
                Map.entry("REDRIVE_CLAIMS_EFFECT_MARGIN", "500ms"),
                Map.entry("REDRIVE_BACKOFF_BASE", "1s"),
                Map.entry("REDRIVE_BACKOFF_MULTIPLIER", "3"),
                Map.entry("REDRIVE_BACKOFF_MAX_DELAY", "1h"),
                Map.entry("REDRIVE_BACKOFF_SEED", "42"),
                Map.entry("REDRIVE_BATCH_CONCURRENCY", "4"),
                Map.entry("REDRIVE_BATCH_DEADLINE_MARGIN", "5s"),
                Map.entry("REDRIVE_BATCH_MAX_RECEIVE_COUNT", "6"),
                Map.entry("REDRIVE_DEAD_LETTERS_QUEUE_URL", "https://sqs/dlq"),
                Map.entry("REDRIVE_CLAIM_CHECKS_BUCKET", "payloads"),
                Map.entry("REDRIVE_CLAIM_CHECKS_READABLE_BUCKETS", "a, b,,"),
                Map.entry("REDRIVE_CLAIM_CHECKS_KMS_KEY_ID", "key"),
                Map.entry("REDRIVE_CLAIM_CHECKS_CLEANUP", "after-apply"),
                Map.entry("REDRIVE_EFFECTS_CONNECT_TIMEOUT", "1s"),
                Map.entry("REDRIVE_EFFECTS_ATTEMPT_TIMEOUT", "4s"),
                Map.entry("REDRIVE_EFFECTS_CALL_TIMEOUT", "8s"),
                Map.entry("REDRIVE_EFFECTS_RETRY_DELAY", "0ms"),
                Map.entry("REDRIVE_AWS_MAX_ATTEMPTS", "2"),
                Map.entry("REDRIVE_BREAKERS_TABLE", "control")));

        assertThat(s.claims())
                .isEqualTo(new RedriveSettings.Claims(
                        "claims",
                        Duration.ofDays(60),
                        Duration.ofDays(4),
                        Duration.ofDays(14),
                        Duration.ofDays(30),
                        Duration.ofSeconds(3),
                        Duration.ofSeconds(20),
                        Duration.ofMillis(500)));
        assertThat(s.backoff())
                .isEqualTo(new RedriveSettings.Backoff(Duration.ofSeconds(1), 3, Duration.ofHours(1), Optional.of(42)));
        assertThat(s.batch()).isEqualTo(new RedriveSettings.Batch(4, Duration.ofSeconds(5), 6));
        assertThat(s.deadLetters().queueUrl()).contains("https://sqs/dlq");
        assertThat(s.claimChecks())
                .isEqualTo(new RedriveSettings.ClaimChecks(
                        Optional.of("payloads"), List.of("a", "b"), Optional.of("key"), ClaimCheckCleanup.AFTER_APPLY));
        assertThat(s.effects())
                .isEqualTo(new EffectClients.Settings(
                        Duration.ofSeconds(1), Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ZERO));
        assertThat(s.aws().maxAttempts()).isEqualTo(2);
        assertThat(s.breakers().table()).isEqualTo("control");
    }

    @Test
    void breakersAreKeyedByDependencyAndTheExamplesVariablesKeepTheirMeaning() {
        RedriveSettings s = RedriveSettings.fromEnvironment(Map.of(
                "REDRIVE_BREAKERS_EMAIL_PROVIDER_CACHE_TTL", "0s",
                "REDRIVE_BREAKERS_EMAIL_PROVIDER_MAX_OPEN_PERIOD", "20m",
                "REDRIVE_BREAKERS_EMAIL_PROVIDER_OPEN_PERIOD", "1m",
                "REDRIVE_BREAKERS_EMAIL_PROVIDER_CONSECUTIVE_FAILURES", "3",
                "REDRIVE_BREAKERS_PAYMENTS_ENABLED", "false",
                "REDRIVE_BREAKERS_TABLE", "control"));

        assertThat(s.breakers().byDependency()).containsOnlyKeys("email-provider", "payments");
        RedriveSettings.Breaker mail = s.breakers().of("email-provider");
        assertThat(mail.cacheTtl()).isZero();
        assertThat(mail.policy())
                .isEqualTo(new BreakerPolicy(
                        3, 0.5, 20, Duration.ofMinutes(1), Duration.ofMinutes(20), Duration.ofSeconds(30)));
        assertThat(mail.enabled()).isTrue();
        assertThat(s.breakers().of("payments").enabled()).isFalse();
        assertThat(s.breakers().of("payments").policy()).isEqualTo(BreakerPolicy.DEFAULT);
    }

    @Test
    void aBreakerVariableThatNamesNoSettingIsRefusedByName() {
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(Map.of("REDRIVE_BREAKERS_EMAIL_PROVIDER_TTL", "1s")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("REDRIVE_BREAKERS_EMAIL_PROVIDER_TTL names no breaker setting")
                .hasMessageContaining("CACHE_TTL");
    }

    @Test
    void aValueThatDoesNotParseIsRefusedNamingTheVariableAndTheFormItNeeds() {
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(Map.of("REDRIVE_CLAIMS_RECORD_TTL", "a month")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("REDRIVE_CLAIMS_RECORD_TTL is \"a month\", which is not a duration");
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(Map.of("REDRIVE_BATCH_CONCURRENCY", "ten")))
                .hasMessageContaining("REDRIVE_BATCH_CONCURRENCY is \"ten\", which is not a whole number");
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(Map.of("REDRIVE_BREAKERS_MAIL_ENABLED", "yes")))
                .hasMessageContaining("REDRIVE_BREAKERS_MAIL_ENABLED is \"yes\", which is not true or false");
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(Map.of("REDRIVE_CLAIM_CHECKS_CLEANUP", "never")))
                .hasMessageContaining(
                        "REDRIVE_CLAIM_CHECKS_CLEANUP is \"never\", which is not one of [LIFECYCLE, AFTER_APPLY]");
    }

    @Test
    void theValidationsAreTheCorePoliciesOwn() {
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(Map.of("REDRIVE_BACKOFF_MULTIPLIER", "0.5")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multiplier must be a finite number >= 1");
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(Map.of("REDRIVE_AWS_MAX_ATTEMPTS", "9")))
                .hasMessageContaining("1 to 5 attempts");
        assertThatThrownBy(() -> RedriveSettings.fromEnvironment(
                        Map.of("REDRIVE_EFFECTS_ATTEMPT_TIMEOUT", "30s", "REDRIVE_EFFECTS_CALL_TIMEOUT", "20s")))
                .hasMessageContaining("the call's at least the attempt's");
    }

    @Test
    void anUnsafeClaimTtlStopsTheFunctionAtStart() {
        RedriveSettings s = RedriveSettings.fromEnvironment(Map.of("REDRIVE_SWEEPER_RETENTION", "P30D"));

        assertThatThrownBy(() -> ClaimTtlCheck.check(s.claims()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("REDRIVE_CLAIMS_RECORD_TTL (redrive.claims.record-ttl) 35 days")
                .hasMessageContaining("= 49 days");
    }
}
