package dev.redrive.core.consumer;

import dev.redrive.core.claim.IdempotencyKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What an effect gets besides the event: the key and the fencing token to hand downstream (the way a payment API
 * takes an idempotency key), which delivery this is, and the effect's deadline.
 *
 * <p><b>The deadline</b> is the end of the claim's lease minus a margin ({@link
 * dev.redrive.core.claim.LeasePolicy#effectDeadline}): after it another worker may take the claim over and apply the
 * effect, so no part of the effect may start or finish later. Effects call downstream with timeouts no longer than
 * {@link #timeLeft()} (for AWS SDK clients: {@code apiCallTimeout} and {@code apiCallAttemptTimeout} per request),
 * call {@link #checkTimeLeft(String)} before each step that applies anything, and, where the downstream can enforce it,
 * pass the fencing token or make the write conditional on the key, so that even a worker frozen past its deadline
 * and thawed later cannot apply twice.
 *
 * @param key          the claim key
 * @param fencingToken the token of this attempt's claim
 * @param attempt      SQS ApproximateReceiveCount of this delivery
 * @param messageId    the SQS message id of this delivery
 * @param deadline     nothing of the effect may start or finish after it
 * @param clock        the processor's clock, which the deadline is in
 */
public record EffectContext(
        IdempotencyKey key, long fencingToken, int attempt, String messageId, Instant deadline, Clock clock) {

    public EffectContext {
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(clock, "clock");
    }

    /** How long the effect may still take; zero once the deadline has passed. */
    public Duration timeLeft() {
        Duration left = Duration.between(clock.instant(), deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /**
     * The timeout to give the next call downstream: the time left, never zero. Once the deadline has passed it throws
     * {@link EffectDeadlinePassed} (TRANSIENT: nothing was applied, the next delivery claims again) instead of
     * returning a zero that an HTTP client refuses as a timeout ({@code HttpRequest.Builder.timeout}), which would
     * make a bug of an expired lease and dead-letter the message.
     *
     * @param what       the call, for the message ("the receipt")
     * @param dependency the dependency it calls, whose circuit breaker counts it (null: none)
     */
    public Duration callTimeout(String what, String dependency) {
        Duration left = timeLeft();
        if (left.compareTo(MINIMUM_CALL_TIMEOUT) < 0) {
            throw new EffectDeadlinePassed(what, deadline, dependency);
        }
        return left;
    }

    /** Less time than this left is no time for a call: {@link #callTimeout} throws instead. */
    public static final Duration MINIMUM_CALL_TIMEOUT = Duration.ofMillis(1);

    /**
     * Throws {@link EffectDeadlinePassed} once the deadline has passed. Call it right before each step that applies
     * anything downstream.
     *
     * @param what the step, for the message ("the email")
     */
    public void checkTimeLeft(String what) {
        if (timeLeft().isZero()) {
            throw new EffectDeadlinePassed(what, deadline, null);
        }
    }
}
