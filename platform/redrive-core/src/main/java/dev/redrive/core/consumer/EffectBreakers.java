package dev.redrive.core.consumer;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.breaker.CircuitBreaker;
import dev.redrive.core.breaker.ProbeTicket;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * The circuit breakers in front of external effects, by consumer name (one {@link CircuitBreaker} per dependency per
 * sandbox, shared through its store by every sandbox of every consumer of that dependency), and the rule for how long a
 * message its breaker refused is deferred.
 *
 * <p><b>Deferral.</b> A refused message comes back after the rest of the open period (at least 1 s, so it returns once
 * a probe may run), at most SQS's 12-hour visibility limit. Every refusal spends one receive of the source queue's
 * redrive policy ({@code maxReceiveCount}), so the rule keeps the last receive for after the breaker can have closed:
 * when the next receive would be the last one the redrive policy allows ({@code maxReceiveCount - receiveCount == 1}),
 * the message is deferred by the longest the breaker stays open between two probes, its capped open period plus a
 * probe's lease ({@code maxOpenPeriod + probeLease}, at most 12 hours), if that is longer than the rest of the period.
 * By then the open period in force has ended and a probe has had its turn, so the last receive calls a dependency that
 * answered the probe; only an outage that outlasts every deferral (the open periods the receives span, then a full
 * capped period) dead-letters the message. Holding it longer (12 hours at every outage) would delay whatever a short
 * outage caught on its second-to-last receive by half a day, while a long outage is what the dead-letter queue, the
 * sweeper and maintenance windows handle. A message refused on its very last receive (nothing is left to keep) is
 * deferred by the rest of the period like the others; it reaches the dead-letter queue with its failure recorded as
 * TRANSIENT {@value MessageProcessor#CIRCUIT_OPEN} of its dependency, which a maintenance window's auto-replay or a
 * person replays.
 *
 * <p><b>What counts.</b> Only a TRANSIENT failure of the breaker's dependency (its classification names that
 * dependency, or none: a timeout of the JDK's own HTTP client carries no name) counts against the breaker; PERMANENT
 * and SCHEMA failures mean the dependency answered, so they count as answers.
 */
public final class EffectBreakers {

    /** No breakers: every effect calls its dependency. */
    public static final EffectBreakers NONE = new EffectBreakers(Map.of(), 1);

    private final Map<String, CircuitBreaker> byConsumer;
    private final int maxReceiveCount;

    /**
     * @param byConsumer      the breaker of each guarded consumer's dependency, by consumer name
     * @param maxReceiveCount the source queues' redrive policy: receives before a message is dead-lettered
     */
    public EffectBreakers(Map<String, CircuitBreaker> byConsumer, int maxReceiveCount) {
        this.byConsumer = Map.copyOf(Objects.requireNonNull(byConsumer, "byConsumer"));
        if (maxReceiveCount < 1) {
            throw new IllegalArgumentException("maxReceiveCount must be at least 1: " + maxReceiveCount);
        }
        this.maxReceiveCount = maxReceiveCount;
    }

    /** The dependency whose breaker guards {@code consumer}'s calls, if a breaker guards them. */
    public java.util.Optional<String> guardOf(String consumer) {
        return java.util.Optional.ofNullable(byConsumer.get(consumer)).map(CircuitBreaker::dependency);
    }

    /**
     * The permit of {@code consumer}'s call for {@code message}, or null when no breaker guards it (it calls). A replay
     * that took its breaker's probe lease carries the lease's ticket ({@link ProbeTicket#ATTRIBUTE}): under that live
     * lease, its message is the probe.
     */
    CircuitBreaker.Permit admit(String consumer, Instant now, IncomingMessage message) {
        CircuitBreaker breaker = byConsumer.get(consumer);
        return breaker == null
                ? null
                : breaker.admit(now, ProbeTicket.decode(message.attributes().get(ProbeTicket.ATTRIBUTE)));
    }

    /** The dependency whose breaker guards {@code consumer}. */
    String dependency(String consumer) {
        return byConsumer.get(consumer).dependency();
    }

    /**
     * Reports how the permitted call ended: {@code failure} null when the effect succeeded, else its classification.
     */
    void settle(String consumer, CircuitBreaker.Permit permit, Classification failure, Instant now) {
        CircuitBreaker breaker = byConsumer.get(consumer);
        if (breaker == null || permit == null) {
            return;
        }
        if (failure != null && countsAgainst(failure, breaker.dependency())) {
            breaker.failedTransiently(permit, now);
        } else {
            breaker.answered(permit, now);
        }
    }

    /** How long to defer a message {@code consumer}'s breaker refused (see the class comment). */
    int deferralSeconds(String consumer, CircuitBreaker.Permit refused, int receiveCount) {
        BreakerPolicy policy = byConsumer.get(consumer).policy();
        return deferralSeconds(
                refused.deferSeconds(),
                policy.maxOpenPeriod().plus(policy.probeLease()),
                receiveCount,
                maxReceiveCount);
    }

    /**
     * The deferral of a message refused by an open breaker on its {@code receiveCount}-th receive (see the class
     * comment): the rest of the open period, at least 1 s; when its next receive is its last, at least
     * {@code betweenProbes} (the capped open period and a probe's lease); never more than SQS's 12 hours.
     */
    public static int deferralSeconds(
            int restOfOpenPeriodSeconds, Duration betweenProbes, int receiveCount, int maxReceiveCount) {
        long longest = FullJitterBackoff.SQS_MAX_VISIBILITY.toSeconds();
        long seconds = Math.max(1, restOfOpenPeriodSeconds);
        if (maxReceiveCount - receiveCount == 1) {
            seconds = Math.max(seconds, betweenProbes.toSeconds());
        }
        return (int) Math.min(longest, seconds);
    }

    static boolean countsAgainst(Classification failure, String dependency) {
        return failure.failureClass() == FailureClass.TRANSIENT
                && (failure.dependency() == null || failure.dependency().equals(dependency));
    }
}
