package dev.redrive.aws.clients;

import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.retries.api.RetryStrategy;

/**
 * The retry rule of Redrive's own AWS calls, the ones that are not an effect: claims, the quarantine ledger, leases,
 * breakers and the pace (DynamoDB), the queues (SQS), the archive and claim checks (S3), the orders table and its
 * outbox. The SDK's standard strategy with at most {@code maxAttempts} attempts in all, so a throttled or failing call
 * gives up within a few seconds, well inside any invocation, and the event source's redelivery with its backoff stays
 * the retry that matters.
 *
 * <p>Why it must be set on the client: the DynamoDB client's own default makes nine attempts, whatever
 * {@code AWS_MAX_ATTEMPTS} says, with throttling backoffs up to 20 s (a throttled call took 36 s in the standard mode
 * and 63 s in the legacy one); a relay whose marks DynamoDB throttled ran into its 30 s timeout, had its sandbox
 * replaced, and got the same stream batch back again and again. An effect's client follows a stricter rule
 * ({@link EffectClients}).
 */
public final class PlatformClients {

    /** Attempts in all of one call, unless configured otherwise: the call and two retries. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    private PlatformClients() {}

    /** The SDK's standard strategy (AWS's retryable errors, throttling backoff, token bucket), capped in attempts. */
    public static RetryStrategy retryStrategy(int maxAttempts) {
        if (maxAttempts < 1 || maxAttempts > 5) {
            throw new IllegalArgumentException(
                    "Redrive's own AWS calls make 1 to 5 attempts (the redelivery is the retry), not " + maxAttempts);
        }
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(maxAttempts)
                .build();
    }

    /** {@code builder} with the rule applied (everything else it holds is kept). */
    public static ClientOverrideConfiguration.Builder configure(
            ClientOverrideConfiguration.Builder builder, int maxAttempts) {
        return builder.retryStrategy(retryStrategy(maxAttempts));
    }
}
