package dev.redrive.core.consumer;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.breaker.CircuitBreaker;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
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
 * redrive policy ({@code maxReceiveCount}); the rule keeps at least one receive for after the breaker closes: when the
 * next receive would be the last one the redrive policy allows ({@code maxReceiveCount - receiveCount == 1}), the
 * message is deferred by the longest SQS allows (12 hours) instead, so that it is dead-lettered only by an outage
 * longer than its earlier deferrals plus 12 hours. A message refused on its very last receive (nothing is left to keep)
 * is deferred by the rest of the period like the others; it reaches the dead-letter queue with its failure recorded as
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

    /** The permit of {@code consumer}'s next call, or null when no breaker guards it (it calls). */
    CircuitBreaker.Permit admit(String consumer, Instant now) {
        CircuitBreaker breaker = byConsumer.get(consumer);
        return breaker == null ? null : breaker.admit(now);
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

    /** How long to defer a refused message (see the class comment). */
    int deferralSeconds(CircuitBreaker.Permit refused, int receiveCount) {
        return deferralSeconds(refused.deferSeconds(), receiveCount, maxReceiveCount);
    }

    /**
     * The deferral of a message refused by an open breaker on its {@code receiveCount}-th receive (see the class
     * comment): the rest of the open period, at least 1 s and at most 12 h, or 12 h when its next receive is its last.
     */
    public static int deferralSeconds(int restOfOpenPeriodSeconds, int receiveCount, int maxReceiveCount) {
        int longest = (int) FullJitterBackoff.SQS_MAX_VISIBILITY.toSeconds();
        if (maxReceiveCount - receiveCount == 1) {
            return longest;
        }
        return Math.min(longest, Math.max(1, restOfOpenPeriodSeconds));
    }

    static boolean countsAgainst(Classification failure, String dependency) {
        return failure.failureClass() == FailureClass.TRANSIENT
                && (failure.dependency() == null || failure.dependency().equals(dependency));
    }
}
