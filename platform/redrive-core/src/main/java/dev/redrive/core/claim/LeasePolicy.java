package dev.redrive.core.claim;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How long a claim's lease and its record last.
 *
 * <p>The lease covers the rest of the invocation (Lambda kills the worker at its deadline, so nobody may take over
 * before it) plus a margin for clock skew between workers. It is never shorter than {@code minimumLease}, so a claim
 * made with little time left still protects a short effect.
 *
 * @param clockSkewMargin added to the invocation's remaining time
 * @param minimumLease    the shortest lease ever granted
 * @param recordTtl       how long a claim record counts; must cover the longest time a message can come back
 *                        (source retention + DLQ + quarantine retention), or a late replay would apply twice
 * @param effectMargin    kept back from the end of the lease, besides the clock skew, for an effect's last call to
 *                        reach its downstream: see {@link #effectDeadline}
 */
public record LeasePolicy(Duration clockSkewMargin, Duration minimumLease, Duration recordTtl, Duration effectMargin) {

    /** The effect margin used when none is given. */
    public static final Duration DEFAULT_EFFECT_MARGIN = Duration.ofSeconds(1);

    public static final LeasePolicy DEFAULT =
            new LeasePolicy(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofDays(35));

    public LeasePolicy {
        Objects.requireNonNull(clockSkewMargin, "clockSkewMargin");
        Objects.requireNonNull(minimumLease, "minimumLease");
        Objects.requireNonNull(recordTtl, "recordTtl");
        Objects.requireNonNull(effectMargin, "effectMargin");
        if (clockSkewMargin.isNegative() || minimumLease.isNegative() || minimumLease.isZero()) {
            throw new IllegalArgumentException("lease durations must be positive");
        }
        if (effectMargin.isNegative()) {
            throw new IllegalArgumentException("effectMargin must not be negative: " + effectMargin);
        }
        if (recordTtl.compareTo(minimumLease.plus(clockSkewMargin)) <= 0) {
            throw new IllegalArgumentException("recordTtl " + recordTtl + " must be longer than a lease");
        }
    }

    /** A policy with the {@link #DEFAULT_EFFECT_MARGIN}. */
    public LeasePolicy(Duration clockSkewMargin, Duration minimumLease, Duration recordTtl) {
        this(clockSkewMargin, minimumLease, recordTtl, DEFAULT_EFFECT_MARGIN);
    }

    /**
     * The deadline of an effect run under a lease ending at {@code leaseExpiresAt}: the lease end minus the clock
     * skew margin (another worker whose clock is that far ahead may take over that much earlier, by our clock) minus
     * the effect margin (a call sent just before the deadline still has to reach its downstream). When the lease is
     * the invocation's remaining time plus the skew margin, this is the invocation's deadline minus the effect margin.
     * When it is the {@code minimumLease}, this deadline can come after the invocation's (it does for a claim made
     * with less than the minimum lease minus both margins left), and the invocation's end bounds the effect first:
     * Lambda kills the worker at its deadline.
     */
    public Instant effectDeadline(Instant leaseExpiresAt) {
        return leaseExpiresAt.minus(clockSkewMargin).minus(effectMargin);
    }

    public Instant leaseExpiry(Instant now, Duration invocationRemaining) {
        Duration lease = invocationRemaining.isNegative() ? Duration.ZERO : invocationRemaining;
        lease = lease.plus(clockSkewMargin);
        if (lease.compareTo(minimumLease) < 0) {
            lease = minimumLease;
        }
        return now.plus(lease);
    }

    public Instant recordExpiry(Instant now) {
        return now.plus(recordTtl);
    }

    public ClaimRequest request(
            IdempotencyKey key, String payloadHash, MessageOrigin origin, Instant now, Duration invocationRemaining) {
        return new ClaimRequest(key, payloadHash, leaseExpiry(now, invocationRemaining), recordExpiry(now), origin);
    }
}
