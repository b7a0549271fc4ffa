package dev.redrive.aws.clients;

import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.consumer.EffectDeadlinePassed;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkClient;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;

/**
 * The per-request timeouts of an effect's AWS calls: each call may take at most the time left before the effect's
 * deadline ({@code apiCallTimeout}, which bounds its one retry too, and {@code apiCallAttemptTimeout}), or the
 * client's own timeouts when they are shorter (a per-request value replaces the client's), and no call starts once
 * the deadline has passed. Measured on the monotonic clock from the time left when the effect began.
 *
 * <pre>
 * EffectCallTimeouts calls = EffectCallTimeouts.within(context, "payments", client);
 * client.putItem(b -&gt; b.tableName(t).item(item).overrideConfiguration(calls.next("the payment")));
 * </pre>
 *
 * Use it with a client from {@link EffectClients}: together they are the one retry rule of an effect.
 */
public final class EffectCallTimeouts {

    private final long deadlineNanos;
    private final String dependency;
    private final Optional<Duration> clientCallTimeout;
    private final Optional<Duration> clientAttemptTimeout;

    private EffectCallTimeouts(long deadlineNanos, String dependency, ClientOverrideConfiguration client) {
        this.deadlineNanos = deadlineNanos;
        this.dependency = dependency;
        this.clientCallTimeout = client == null ? Optional.empty() : client.apiCallTimeout();
        this.clientAttemptTimeout = client == null ? Optional.empty() : client.apiCallAttemptTimeout();
    }

    /**
     * Timeouts for calls made from now on, by an effect with {@code timeLeft} before its deadline, through a client
     * configured with {@code client} (null: none of its own).
     *
     * @param dependency what the calls reach, recorded on the failure when the deadline passes
     */
    public static EffectCallTimeouts within(Duration timeLeft, String dependency, ClientOverrideConfiguration client) {
        return new EffectCallTimeouts(System.nanoTime() + Math.max(0, timeLeft.toNanos()), dependency, client);
    }

    /** Timeouts for the calls an effect with {@code context} makes through {@code client}. */
    public static EffectCallTimeouts within(EffectContext context, String dependency, SdkClient client) {
        return within(
                context.timeLeft(),
                dependency,
                client.serviceClientConfiguration().overrideConfiguration());
    }

    /**
     * The override configuration of the next call.
     *
     * @throws EffectDeadlinePassed when no time is left: the call must not start
     */
    public AwsRequestOverrideConfiguration next(String call) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new EffectDeadlinePassed(call, dependency);
        }
        Duration timeout = Duration.ofNanos(left);
        return AwsRequestOverrideConfiguration.builder()
                .apiCallTimeout(shorter(timeout, clientCallTimeout))
                .apiCallAttemptTimeout(shorter(timeout, clientAttemptTimeout))
                .build();
    }

    private static Duration shorter(Duration timeLeft, Optional<Duration> configured) {
        return configured.filter(c -> c.compareTo(timeLeft) < 0).orElse(timeLeft);
    }
}
