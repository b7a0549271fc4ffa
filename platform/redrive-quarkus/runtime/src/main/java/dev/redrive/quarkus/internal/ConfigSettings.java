package dev.redrive.quarkus.internal;

import dev.redrive.aws.clients.EffectClients;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.lambda.internal.BreakerVariables;
import dev.redrive.quarkus.RedriveConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Maps the typed configuration onto {@code redrive-lambda}'s {@link RedriveSettings}, whose records validate it: a
 * Quarkus function reads the same settings, defaults and checks as a plain-Java function reading its environment.
 */
public final class ConfigSettings {

    private ConfigSettings() {}

    /**
     * The settings {@code config} holds, the build version falling back to this process' {@code
     * AWS_LAMBDA_FUNCTION_VERSION} as a plain-Java function's does.
     */
    public static RedriveSettings of(RedriveConfig config) {
        return of(config, Optional.ofNullable(System.getenv(RedriveSettings.Build.FUNCTION_VERSION_VARIABLE)));
    }

    /**
     * The settings {@code config} holds, for a function whose Lambda version ({@code AWS_LAMBDA_FUNCTION_VERSION}, which
     * is no {@code redrive.} property) is {@code functionVersion}.
     */
    public static RedriveSettings of(RedriveConfig config, Optional<String> functionVersion) {
        RedriveConfig.Claims claims = config.claims();
        RedriveConfig.Backoff backoff = config.backoff();
        RedriveConfig.Batch batch = config.batch();
        RedriveConfig.ClaimChecks claimChecks = config.claimChecks();
        RedriveConfig.Effects effects = config.effects();
        return new RedriveSettings(
                new RedriveSettings.Claims(
                        claims.table(),
                        claims.recordTtl(),
                        claims.sourceRetention(),
                        claims.deadLetterRetention(),
                        config.sweeper().retention(),
                        claims.clockSkewMargin(),
                        claims.minimumLease(),
                        claims.effectMargin()),
                new RedriveSettings.Backoff(backoff.base(), backoff.multiplier(), backoff.maxDelay(), backoff.seed()),
                new RedriveSettings.Batch(batch.concurrency(), batch.deadlineMargin(), batch.maxReceiveCount()),
                new RedriveSettings.DeadLetters(config.deadLetters().queueUrl()),
                new RedriveSettings.ClaimChecks(
                        claimChecks.bucket(),
                        claimChecks.readableBuckets().orElse(List.of()),
                        claimChecks.kmsKeyId(),
                        claimChecks.cleanup()),
                new EffectClients.Settings(
                        effects.connectTimeout(),
                        effects.attemptTimeout(),
                        effects.callTimeout(),
                        effects.retryDelay()),
                new RedriveSettings.Aws(config.aws().maxAttempts()),
                new RedriveSettings.Breakers(config.breakers().table(), breakers(config.breakers())),
                RedriveSettings.Build.of(config.buildVersion(), functionVersion));
    }

    /**
     * The breakers by dependency. A key read from an environment variable ({@code EMAIL_PROVIDER}) names the same
     * dependency as the property's ({@code email-provider}): both are read as the plain-Java function reads them.
     */
    static Map<String, RedriveSettings.Breaker> breakers(RedriveConfig.Breakers breakers) {
        Map<String, RedriveSettings.Breaker> byDependency = new TreeMap<>();
        breakers.dependencies().forEach((key, breaker) -> {
            String dependency = BreakerVariables.dependency(key);
            if (byDependency.put(dependency, breaker(breaker)) != null) {
                throw new IllegalArgumentException("the breaker of " + dependency + " is configured twice, under two"
                        + " spellings of its name: keep one of redrive.breakers." + dependency + ".* and "
                        + BreakerVariables.variablePrefix(dependency) + "*");
            }
        });
        return byDependency;
    }

    static RedriveSettings.Breaker breaker(RedriveConfig.Breaker breaker) {
        return new RedriveSettings.Breaker(
                breaker.enabled(),
                new BreakerPolicy(
                        breaker.consecutiveFailures(),
                        breaker.failureRate(),
                        breaker.window(),
                        breaker.openPeriod(),
                        breaker.maxOpenPeriod(),
                        breaker.probeLease()),
                breaker.cacheTtl());
    }
}
