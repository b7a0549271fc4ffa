package dev.redrive.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.CheckoutNames.OrderIndexShards;
import dev.redrive.checkout.CheckoutNames.OrderRetention;
import dev.redrive.checkout.placing.IndexShards;
import dev.redrive.core.names.RedriveNames.ReplayPaceVariables;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.quarkus.RedriveConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.WithDefault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The CDK app writes the consumers' backoff and circuit-breaker settings to the email consumer's environment even at
 * their defaults, so that the template says what the function runs with (the local run's waits read them there). Its
 * defaults live in infra ({@code BackoffSettings.DEFAULT}, {@code BreakerSettings.DEFAULT}) as well as here, in the
 * {@code @WithDefault}s of the Redrive extension's {@link RedriveConfig} (the replay pace: of {@link CheckoutConfig}): this test reads the template the infra module synthesized with no
 * context and checks that the two agree, so that neither can drift alone.
 *
 * <p>It lives here, beside the references that document both sets of defaults, rather than in the functions module:
 * there it made the functions' build wait for infra's synth, and the local run for both one after the other.
 */
class TemplateSettingsMatchTheDefaultsTest {

    static final Path TEMPLATE =
            Path.of("..", "..", "examples", "checkout", "infra", "target", "cdk.out", "Redrive.template.json");

    @Test
    void theDefaultStacksBackoffAndBreakerSettingsAreTheFunctionsDefaults() throws Exception {
        assertThat(TEMPLATE)
                .as("the default stack's template: build infra first (./mvnw -pl examples/checkout/infra package)")
                .exists();
        Map<String, String> env = emailConsumerEnvironment(new ObjectMapper().readTree(Files.readString(TEMPLATE)));

        assertThat(Duration.parse(env.get("REDRIVE_BACKOFF_BASE")))
                .isEqualTo(durationDefault(RedriveConfig.Backoff.class, "base"));
        assertThat(Double.parseDouble(env.get("REDRIVE_BACKOFF_MULTIPLIER")))
                .isEqualTo(Double.parseDouble(textDefault(RedriveConfig.Backoff.class, "multiplier")));
        assertThat(Duration.parse(env.get("REDRIVE_BACKOFF_MAX_DELAY")))
                .isEqualTo(durationDefault(RedriveConfig.Backoff.class, "maxDelay"));

        String breaker = "REDRIVE_BREAKERS_EMAIL_PROVIDER_";
        assertThat(env).containsKeys(breaker + "OPEN_PERIOD", breaker + "MAX_OPEN_PERIOD", breaker + "PROBE_LEASE");
        assertThat(Duration.parse(env.get(breaker + "OPEN_PERIOD")))
                .isEqualTo(durationDefault(RedriveConfig.Breaker.class, "openPeriod"));
        assertThat(Duration.parse(env.get(breaker + "MAX_OPEN_PERIOD")))
                .isEqualTo(durationDefault(RedriveConfig.Breaker.class, "maxOpenPeriod"));
        assertThat(Duration.parse(env.get(breaker + "PROBE_LEASE")))
                .isEqualTo(durationDefault(RedriveConfig.Breaker.class, "probeLease"));
        assertThat(env.get(breaker + "ENABLED")).isEqualTo(textDefault(RedriveConfig.Breaker.class, "enabled"));
    }

    @Test
    void theDefaultStacksReplayPaceIsTheSweepersDefault() throws Exception {
        Map<String, String> env = environment(new ObjectMapper().readTree(Files.readString(TEMPLATE)), "dlq-sweeper");

        assertThat(Double.parseDouble(env.get(ReplayPaceVariables.RATE_PER_SECOND)))
                .isEqualTo(Double.parseDouble(textDefault(CheckoutConfig.Replays.class, "ratePerSecond")));
        assertThat(Duration.parse(env.get(ReplayPaceVariables.HORIZON)))
                .isEqualTo(durationDefault(CheckoutConfig.Replays.class, "horizon"));
        assertThat(env).doesNotContainKey(ReplayPaceVariables.LANE_RATES);
        assertThat(ReplayPace.fromVariables(v -> Optional.ofNullable(env.get(v))))
                .as("what the CLI and the local run read from the same variables")
                .isEqualTo(ReplayPace.DEFAULT);
    }

    @Test
    void theDefaultStacksClaimCheckCleanupIsTheConsumersDefault() throws Exception {
        Map<String, String> env = emailConsumerEnvironment(new ObjectMapper().readTree(Files.readString(TEMPLATE)));

        assertThat(env.get("REDRIVE_CLAIM_CHECKS_CLEANUP"))
                .isEqualTo(textDefault(RedriveConfig.ClaimChecks.class, "cleanup"));
    }

    @Test
    void theDefaultStacksIndexShardCountIsTheProducersDefault() throws Exception {
        JsonNode template = new ObjectMapper().readTree(Files.readString(TEMPLATE));
        for (String handler : List.of("checkout", "outbox-relay", "outbox-sweeper", "checkout-reconciliation")) {
            Map<String, String> env = environment(template, handler);
            assertThat(env.get(OrderIndexShards.VARIABLE))
                    .as(handler)
                    .isEqualTo(textDefault(CheckoutConfig.Checkout.class, "indexShards"))
                    .isEqualTo(Integer.toString(IndexShards.DEFAULT.count()));
            assertThat(env).as(handler).doesNotContainKey(OrderIndexShards.DRAINING_VARIABLE);
        }
    }

    @Test
    void theDefaultStacksOrderRetentionsAreTheProducersDefaults() throws Exception {
        JsonNode template = new ObjectMapper().readTree(Files.readString(TEMPLATE));
        for (String handler : List.of("checkout", "checkout-reconciliation")) {
            assertThat(Duration.parse(environment(template, handler).get(OrderRetention.ATTEMPT_VARIABLE)))
                    .as(handler)
                    .isEqualTo(durationDefault(CheckoutConfig.Checkout.class, "attemptRetention"))
                    .isEqualTo(Duration.ofDays(30));
        }
        for (String handler : List.of("outbox-relay", "outbox-sweeper")) {
            assertThat(Duration.parse(environment(template, handler).get(OrderRetention.EVENT_VARIABLE)))
                    .as(handler)
                    .isEqualTo(durationDefault(CheckoutConfig.Checkout.class, "publishedEventRetention"))
                    .isEqualTo(Duration.ofDays(7));
        }
    }

    private static Map<String, String> emailConsumerEnvironment(JsonNode template) {
        return environment(template, "confirmation-email");
    }

    private static Map<String, String> environment(JsonNode template, String handler) {
        for (JsonNode resource : template.path("Resources")) {
            JsonNode variables = resource.path("Properties").path("Environment").path("Variables");
            if ("AWS::Lambda::Function".equals(resource.path("Type").asText())
                    && handler.equals(variables.path("QUARKUS_LAMBDA_HANDLER").asText())) {
                Map<String, String> env = new LinkedHashMap<>();
                variables.fields().forEachRemaining(e -> {
                    if (e.getValue().isTextual()) {
                        env.put(e.getKey(), e.getValue().asText());
                    }
                });
                return env;
            }
        }
        throw new AssertionError("the template has no " + handler + " function");
    }

    private static Duration durationDefault(Class<?> group, String property) {
        return new DurationConverter().convert(textDefault(group, property));
    }

    private static String textDefault(Class<?> group, String property) {
        try {
            WithDefault value = group.getMethod(property).getAnnotation(WithDefault.class);
            assertThat(value)
                    .as(group.getSimpleName() + "." + property + " has a @WithDefault")
                    .isNotNull();
            return value.value();
        } catch (NoSuchMethodException e) {
            throw new AssertionError(group.getSimpleName() + " has no property " + property, e);
        }
    }
}
