package dev.redrive.functions.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.lambda.RedriveSettings;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One rule per setting: the Quarkus mapping and {@code redrive-lambda}'s environment reader give the same settings for
 * the same environment, defaults included.
 */
class RedriveConfigSettingsTest {

    static final Map<String, String> ENVIRONMENT = Map.ofEntries(
            Map.entry("REDRIVE_CLAIMS_TABLE", "claims"),
            Map.entry("REDRIVE_CLAIMS_RECORD_TTL", "P60D"),
            Map.entry("REDRIVE_SWEEPER_RETENTION", "P30D"),
            Map.entry("REDRIVE_CLAIMS_EFFECT_MARGIN", "500ms"),
            Map.entry("REDRIVE_BACKOFF_BASE", "1s"),
            Map.entry("REDRIVE_BACKOFF_SEED", "42"),
            Map.entry("REDRIVE_BATCH_CONCURRENCY", "4"),
            Map.entry("REDRIVE_DEAD_LETTERS_QUEUE_URL", "https://sqs/dlq"),
            Map.entry("REDRIVE_CLAIM_CHECKS_BUCKET", "payloads"),
            Map.entry("REDRIVE_CLAIM_CHECKS_READABLE_BUCKETS", "a,b"),
            Map.entry("REDRIVE_CLAIM_CHECKS_CLEANUP", "AFTER_APPLY"),
            Map.entry("REDRIVE_EFFECTS_CALL_TIMEOUT", "30s"),
            Map.entry("REDRIVE_AWS_MAX_ATTEMPTS", "2"),
            Map.entry("REDRIVE_BREAKERS_TABLE", "control"),
            Map.entry("REDRIVE_BREAKERS_EMAIL_PROVIDER_CACHE_TTL", "0s"),
            Map.entry("REDRIVE_BREAKERS_EMAIL_PROVIDER_MAX_OPEN_PERIOD", "20m"));

    @Test
    void theDefaultsAreTheSame() {
        assertSame(Map.of());
    }

    @Test
    void theSameEnvironmentGivesTheSameSettings() {
        assertSame(ENVIRONMENT);
    }

    private static void assertSame(Map<String, String> environment) {
        RedriveConfig config = new SmallRyeConfigBuilder()
                .withSources(new EnvConfigSource(environment, 300))
                .withConverter(Duration.class, 200, new DurationConverter()) // as Quarkus reads durations
                .withMapping(RedriveConfig.class)
                .build()
                .getConfigMapping(RedriveConfig.class);

        RedriveSettings quarkus = RedriveConfigSettings.of(config);
        RedriveSettings plain = RedriveSettings.fromEnvironment(environment);

        assertThat(quarkus.claims()).isEqualTo(plain.claims());
        assertThat(quarkus.backoff()).isEqualTo(plain.backoff());
        assertThat(quarkus.batch()).isEqualTo(plain.batch());
        assertThat(quarkus.deadLetters()).isEqualTo(plain.deadLetters());
        assertThat(quarkus.claimChecks()).isEqualTo(plain.claimChecks());
        assertThat(quarkus.effects()).isEqualTo(plain.effects());
        assertThat(quarkus.aws()).isEqualTo(plain.aws());
        assertThat(quarkus.breakers().table()).isEqualTo(plain.breakers().table());
        assertThat(quarkus.breakers().of("email-provider"))
                .isEqualTo(plain.breakers().of("email-provider"));
    }
}
