package dev.redrive.quarkus.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.lambda.RedriveSettings;
import dev.redrive.quarkus.RedriveConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One rule per setting: the Quarkus mapping and {@code redrive-lambda}'s environment reader give the same settings for
 * the same environment, defaults included.
 */
class ConfigSettingsTest {

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
            Map.entry("REDRIVE_BREAKERS_EMAIL_PROVIDER_MAX_OPEN_PERIOD", "20m"),
            Map.entry("REDRIVE_BUILD_VERSION", "2026.12.06-abc123"),
            Map.entry("AWS_LAMBDA_FUNCTION_VERSION", "7"));

    @Test
    void theDefaultsAreTheSame() {
        assertSame(Map.of());
    }

    @Test
    void theSameEnvironmentGivesTheSameSettings() {
        assertSame(ENVIRONMENT);
    }

    @Test
    void theBuildVersionFallsBackTheSameWay() {
        assertSame(Map.of("AWS_LAMBDA_FUNCTION_VERSION", "12"));
        assertSame(Map.of("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST"));
        assertSame(Map.of("REDRIVE_BUILD_VERSION", "v2", "AWS_LAMBDA_FUNCTION_VERSION", "12"));

        assertThat(settings(Map.of("AWS_LAMBDA_FUNCTION_VERSION", "12")).build().version())
                .isEqualTo("12");
        assertThat(settings(Map.of("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST"))
                        .build()
                        .version())
                .isEqualTo("unknown");
        assertThat(settings(Map.of("REDRIVE_BUILD_VERSION", "v2", "AWS_LAMBDA_FUNCTION_VERSION", "12"))
                        .build()
                        .version())
                .isEqualTo("v2");
        assertThat(ConfigSettings.of(config(Map.of("redrive.build-version", "v3")), Optional.empty())
                        .build()
                        .version())
                .as("the property's name")
                .isEqualTo("v3");
    }

    @Test
    void breakersAreKeyedByDependencyWhetherNamedByVariableOrProperty() {
        RedriveSettings settings = ConfigSettings.of(config(
                Map.of("REDRIVE_BREAKERS_MAIL_PROVIDER_WINDOW", "7", "redrive.breakers.ledger-api.enabled", "false")));

        assertThat(settings.breakers().byDependency()).containsOnlyKeys("mail-provider", "ledger-api");
        assertThat(settings.breakers().of("mail-provider").policy().window()).isEqualTo(7);
        assertThat(settings.breakers().of("ledger-api").enabled()).isFalse();
        assertThat(settings.breakers().of("anything-else")).isEqualTo(RedriveSettings.Breaker.DEFAULT);
    }

    @Test
    void oneDependencyConfiguredUnderTwoSpellingsIsRefusedNamingBoth() {
        RedriveConfig config = config(Map.of(
                "REDRIVE_BREAKERS_MAIL_PROVIDER_WINDOW", "7", "redrive.breakers.mail_provider.enabled", "false"));

        assertThatThrownBy(() -> ConfigSettings.of(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redrive.breakers.mail-provider.*")
                .hasMessageContaining("REDRIVE_BREAKERS_MAIL_PROVIDER_*");
    }

    private static RedriveConfig config(Map<String, String> environment) {
        return new SmallRyeConfigBuilder()
                .withSources(new EnvConfigSource(environment, 300), new BreakerVariablesSource(environment))
                .withConverter(Duration.class, 200, new DurationConverter()) // as Quarkus reads durations
                .withMapping(RedriveConfig.class)
                .build()
                .getConfigMapping(RedriveConfig.class);
    }

    private static RedriveSettings settings(Map<String, String> environment) {
        return ConfigSettings.of(
                config(environment),
                Optional.ofNullable(environment.get(RedriveSettings.Build.FUNCTION_VERSION_VARIABLE)));
    }

    private static void assertSame(Map<String, String> environment) {
        RedriveSettings quarkus = settings(environment);
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
        assertThat(quarkus.build()).isEqualTo(plain.build());
    }
}
