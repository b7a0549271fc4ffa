package dev.redrive.functions.config;

import dev.redrive.aws.clients.EffectClients;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.lambda.RedriveSettings;
import java.util.List;
import java.util.Map;

/**
 * Maps the Quarkus configuration onto {@code redrive-lambda}'s {@link RedriveSettings}, whose records validate it: the
 * consumer glue of this application reads the same settings, defaults and checks as a plain-Java function reading its
 * environment.
 */
public final class RedriveConfigSettings {

    private RedriveConfigSettings() {}

    public static RedriveSettings of(RedriveConfig config) {
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
                new RedriveSettings.Breakers(
                        config.breakers().table(),
                        Map.of(
                                ConfirmationEmailConsumer.DEPENDENCY,
                                breaker(config.breakers().emailProvider()))));
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
