package dev.redrive.aws.clients;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.client.builder.SdkClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ServiceClientConfiguration;

/**
 * The AWS SDK clients effects call their dependencies with, built so that there is <b>one retry layer</b>: the SQS
 * redelivery with full-jitter backoff (and the circuit breaker in front of it). The SDK's default strategy retries a
 * throttled or failing call two or three more times by itself, so each SQS-level attempt hammered a downed dependency
 * several times and the redrive policy's receive budget meant nothing. A client from here:
 *
 * <ul>
 *   <li>retries at most once ({@value #MAX_ATTEMPTS} attempts), after {@link Settings#retryDelay()}, and only for a
 *       connection-level blip ({@link #connectionBlip}: the connection refused, reset or closed under it, a name that
 *       did not resolve) — never a throttle, a 5xx or a timeout, which say the dependency is struggling and go to the
 *       backoff and the breaker instead;</li>
 *   <li>has the SDK's own retry circuit (its token bucket) off, so the decision is this rule alone;</li>
 *   <li>connects within {@link Settings#connectTimeout()} and gives up on a silent socket after
 *       {@link Settings#attemptTimeout()}, with client-wide call and attempt timeouts as a backstop;</li>
 *   <li>is meant to be called with per-request timeouts from the effect's deadline ({@link EffectCallTimeouts}),
 *       which are shorter whenever the effect has less time left.</li>
 * </ul>
 *
 * <p><b>Writing your own effect:</b> build its client with {@link #configure} (any service's sync builder) or
 * {@link #s3Like}, and pass {@code EffectCallTimeouts.within(context, dependency, client).next("what")} as each
 * request's override configuration. Do not retry inside the effect: throw, and let the classifier and the backoff do
 * it.
 */
public final class EffectClients {

    /** One call and at most one quick retry. */
    public static final int MAX_ATTEMPTS = 2;

    private EffectClients() {}

    /**
     * The timeouts and the retry pause of an effect's client ({@link #DEFAULT} unless configured): the connect and
     * attempt timeouts bound each attempt, the call timeout bounds the call with its one retry.
     *
     * @param connectTimeout how long a connection may take to open
     * @param attemptTimeout the longest one attempt may take (also the socket's read timeout), a backstop: the
     *                       effect's deadline is usually shorter
     * @param callTimeout    the longest a call may take with its retry, a backstop likewise
     * @param retryDelay     the pause before the one retry of a connection blip
     */
    public record Settings(
            Duration connectTimeout, Duration attemptTimeout, Duration callTimeout, Duration retryDelay) {

        public static final Settings DEFAULT = new Settings(
                Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofMillis(50));

        public Settings {
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            Objects.requireNonNull(attemptTimeout, "attemptTimeout");
            Objects.requireNonNull(callTimeout, "callTimeout");
            Objects.requireNonNull(retryDelay, "retryDelay");
            if (connectTimeout.isNegative()
                    || connectTimeout.isZero()
                    || attemptTimeout.isNegative()
                    || attemptTimeout.isZero()
                    || callTimeout.compareTo(attemptTimeout) < 0) {
                throw new IllegalArgumentException(
                        "effect client timeouts must be positive, the call's at least the attempt's: connect "
                                + connectTimeout + ", attempt " + attemptTimeout + ", call " + callTimeout);
            }
            if (retryDelay.isNegative() || retryDelay.compareTo(Duration.ofSeconds(1)) > 0) {
                throw new IllegalArgumentException(
                        "the retry of a connection blip is quick (at most 1 s): " + retryDelay);
            }
        }
    }

    /** The retry strategy of an effect's client: at most one retry, for a connection blip only. */
    public static RetryStrategy retryStrategy(Settings settings) {
        return DefaultRetryStrategy.standardStrategyBuilder()
                .maxAttempts(MAX_ATTEMPTS)
                .retryOnException(EffectClients::connectionBlip)
                .backoffStrategy(BackoffStrategy.fixedDelayWithoutJitter(settings.retryDelay()))
                .throttlingBackoffStrategy(BackoffStrategy.fixedDelayWithoutJitter(settings.retryDelay()))
                .treatAsThrottling(t -> false)
                .circuitBreakerEnabled(false)
                .useClientDefaults(false)
                .build();
    }

    /**
     * Whether a failed attempt was a connection-level blip worth one quick retry: somewhere in its causes the
     * connection was refused, reset or closed under it (a stale pooled connection), or a name did not resolve. Never a
     * timeout ({@link InterruptedIOException}, which includes socket timeouts): a slow dependency gets no second call.
     */
    public static boolean connectionBlip(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof InterruptedIOException) {
                return false;
            }
            if (t instanceof ConnectException || t instanceof SocketException || t instanceof UnknownHostException) {
                return true;
            }
            if (t instanceof IOException && String.valueOf(t.getMessage()).contains("end of file")) {
                return true; // a keep-alive connection the server closed ("Unexpected end of file from server")
            }
        }
        return false;
    }

    /** The client-wide configuration of an effect's client: the retry rule and the backstop timeouts. */
    public static ClientOverrideConfiguration overrideConfiguration(Settings settings) {
        return ClientOverrideConfiguration.builder()
                .retryStrategy(retryStrategy(settings))
                .apiCallAttemptTimeout(settings.attemptTimeout())
                .apiCallTimeout(settings.callTimeout())
                .build();
    }

    /** The HTTP client of an effect's client: URL connection, with the connect and socket timeouts. */
    public static SdkHttpClient httpClient(Settings settings) {
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(settings.connectTimeout())
                .socketTimeout(settings.attemptTimeout())
                .build();
    }

    /**
     * Applies the rule to any service's sync client builder: its HTTP client and override configuration are replaced
     * (region, credentials and endpoint are left as the builder has them).
     */
    public static <B extends AwsSyncClientBuilder<B, C> & SdkClientBuilder<B, C>, C> B configure(
            B builder, Settings settings) {
        return builder.httpClient(httpClient(settings)).overrideConfiguration(overrideConfiguration(settings));
    }

    /**
     * An effect's S3 client with the region, credentials and endpoint of {@code like} (the application's own client),
     * and the retry rule and timeouts of an effect.
     *
     * @param pathStyle whether to address buckets in the path (local S3 emulators need it)
     */
    public static S3Client s3Like(S3Client like, boolean pathStyle, Settings settings) {
        S3ServiceClientConfiguration base = like.serviceClientConfiguration();
        var builder = S3Client.builder()
                .region(base.region())
                .credentialsProvider(base.credentialsProvider())
                .forcePathStyle(pathStyle);
        base.endpointOverride().ifPresent(builder::endpointOverride);
        return configure(builder, settings).build();
    }
}
