package dev.redrive.core.breaker;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A dependency's circuit breaker as every sandbox shares it (one item of the control table). The token grows on every
 * transition: a transition is written only if the token is still the one it was decided from, so of two sandboxes
 * deciding the same transition one wins, and a probe's result is taken only from the probe that holds the lease.
 *
 * @param status          CLOSED (calls go through), OPEN (refused until {@code openUntil}), HALF_OPEN (one probe)
 * @param token           the fencing token, 0 for a breaker that never opened
 * @param openedAt        when it first opened in this outage (kept through probes; null when closed)
 * @param openPeriod      the current open period (doubled by each failed probe; null when closed)
 * @param openUntil       when an OPEN breaker lets a probe through (null unless OPEN)
 * @param probeLeaseUntil when the HALF_OPEN probe's lease ends (null unless HALF_OPEN)
 * @param held            whether maintenance windows hold it OPEN until {@code openUntil} (only an OPEN breaker is
 *                        held): the hold is theirs, so it follows them ({@link CircuitBreakerRules#withHold}); an
 *                        opening of its own is not held
 */
public record BreakerState(
        Status status,
        long token,
        Instant openedAt,
        Duration openPeriod,
        Instant openUntil,
        Instant probeLeaseUntil,
        boolean held) {

    /**
     * Where the breaker stands: CLOSED lets calls through, OPEN refuses them (their messages are deferred) until its
     * open period ends, HALF_OPEN lets one probe through under a lease.
     */
    public enum Status {
        CLOSED,
        OPEN,
        HALF_OPEN
    }

    public BreakerState {
        Objects.requireNonNull(status, "status");
        boolean consistent = switch (status) {
            case CLOSED -> openedAt == null && openPeriod == null && openUntil == null && probeLeaseUntil == null;
            case OPEN -> openedAt != null && openPeriod != null && openUntil != null && probeLeaseUntil == null;
            case HALF_OPEN -> openedAt != null && openPeriod != null && openUntil == null && probeLeaseUntil != null;
        };
        if (!consistent || token < 0 || (held && status != Status.OPEN)) {
            throw new IllegalArgumentException("inconsistent breaker state: " + status + " token " + token
                    + " openedAt " + openedAt + " period " + openPeriod + " openUntil " + openUntil + " probe lease "
                    + probeLeaseUntil + (held ? " held" : ""));
        }
    }

    /** A breaker no maintenance window holds. */
    public BreakerState(
            Status status,
            long token,
            Instant openedAt,
            Duration openPeriod,
            Instant openUntil,
            Instant probeLeaseUntil) {
        this(status, token, openedAt, openPeriod, openUntil, probeLeaseUntil, false);
    }

    /**
     * The same state under the next token: what a change that does not move the breaker writes to fence out every
     * transition decided from an earlier read (a maintenance window changed, so a hold derived before it is stale).
     */
    public BreakerState rewritten() {
        return new BreakerState(status, token + 1, openedAt, openPeriod, openUntil, probeLeaseUntil, held);
    }

    /** A breaker that never opened. */
    public static BreakerState closed() {
        return new BreakerState(Status.CLOSED, 0, null, null, null, null);
    }

    static BreakerState closed(long token) {
        return new BreakerState(Status.CLOSED, token, null, null, null, null);
    }
}
