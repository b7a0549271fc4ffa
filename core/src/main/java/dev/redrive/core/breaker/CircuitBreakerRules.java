package dev.redrive.core.breaker;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.breaker.BreakerState.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The transitions of a dependency's shared circuit breaker, as pure rules (time passed in):
 *
 * <pre>
 *   CLOSED --open (a sandbox's FailureTracker trips)--&gt; OPEN(period)
 *   OPEN --admit after openUntil--&gt; HALF_OPEN(probe lease, token+1)     one caller; the rest are refused
 *   HALF_OPEN --admit after the lease lapsed--&gt; HALF_OPEN(new lease, token+1)
 *   HALF_OPEN --probeFailed--&gt; OPEN(min(2 x period, cap))
 *   HALF_OPEN --probeSucceeded--&gt; CLOSED
 *   any --heldOpen (a maintenance window)--&gt; OPEN(until the window's end, token+1)
 *   OPEN held by a window --releaseHold (the window removed)--&gt; OPEN(until now, token+1): the next call probes
 * </pre>
 *
 * Every transition grows the token, and is to be written only if the stored token is still the one it was decided
 * from: that is how a single probe runs at a time across sandboxes.
 */
public final class CircuitBreakerRules {

    private final BreakerPolicy policy;

    public CircuitBreakerRules(BreakerPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    public BreakerPolicy policy() {
        return policy;
    }

    /** Whether a call may go to the dependency now, as the probe, or not at all. */
    public Admission admit(BreakerState state, Instant now) {
        return switch (state.status()) {
            case CLOSED -> new Admission.Call();
            case OPEN ->
                now.isBefore(state.openUntil())
                        ? new Admission.Refuse(Duration.between(now, state.openUntil()), state)
                        : probe(state, now);
            case HALF_OPEN ->
                now.isBefore(state.probeLeaseUntil())
                        ? new Admission.Refuse(Duration.between(now, state.probeLeaseUntil()), state)
                        : probe(state, now);
        };
    }

    /** A closed breaker opens for the policy's period. */
    public BreakerState open(BreakerState closed, Instant now) {
        require(closed, Status.CLOSED, "open");
        Duration period = policy.openPeriod();
        return new BreakerState(Status.OPEN, closed.token() + 1, now, period, now.plus(period), null);
    }

    /** The probe failed: open again for twice the period, up to the cap. */
    public BreakerState probeFailed(BreakerState halfOpen, Instant now) {
        require(halfOpen, Status.HALF_OPEN, "take a failed probe");
        Duration doubled = halfOpen.openPeriod().multipliedBy(2);
        Duration period = doubled.compareTo(policy.maxOpenPeriod()) > 0 ? policy.maxOpenPeriod() : doubled;
        return new BreakerState(Status.OPEN, halfOpen.token() + 1, halfOpen.openedAt(), period, now.plus(period), null);
    }

    /** The probe succeeded: the dependency is back. */
    public BreakerState probeSucceeded(BreakerState halfOpen) {
        require(halfOpen, Status.HALF_OPEN, "take a successful probe");
        return BreakerState.closed(halfOpen.token() + 1);
    }

    /**
     * A maintenance window holds the breaker open until its end, whatever state it is in: calls are refused and
     * messages deferred (by the consumers' usual rule) until {@code until}; after it a probe runs, as after any open
     * period. It keeps when the breaker first opened, if it was open. A breaker already open past {@code until} is
     * left as it is (returned unchanged).
     */
    public static BreakerState heldOpen(BreakerState current, Instant now, Instant until) {
        if (!until.isAfter(now)) {
            throw new IllegalArgumentException(
                    "a breaker is held open only until a time to come: " + until + " is not after " + now);
        }
        if (current.status() == Status.OPEN && !current.openUntil().isBefore(until)) {
            return current;
        }
        Instant openedAt = current.openedAt() != null ? current.openedAt() : now;
        return new BreakerState(Status.OPEN, current.token() + 1, openedAt, Duration.between(now, until), until, null);
    }

    /**
     * Ends a hold early (its window was removed): a breaker OPEN until {@code heldUntil} becomes OPEN until now, so
     * the next call is the probe. Any other state (the hold ended, or the breaker moved on) is returned unchanged.
     */
    public static BreakerState releaseHold(BreakerState current, Instant now, Instant heldUntil) {
        if (current.status() != Status.OPEN || !current.openUntil().equals(heldUntil) || !heldUntil.isAfter(now)) {
            return current;
        }
        return new BreakerState(Status.OPEN, current.token() + 1, current.openedAt(), current.openPeriod(), now, null);
    }

    /**
     * The visibility delay of a message refused by an open breaker, in whole seconds: the rest of the open period
     * (rounded up, at least 1 s, so it comes back once the probe may run), at most SQS's 12-hour visibility limit.
     */
    public static int deferralSeconds(Duration restOfOpenPeriod) {
        long max = FullJitterBackoff.SQS_MAX_VISIBILITY.toSeconds();
        long millis = Math.max(0, restOfOpenPeriod.toMillis());
        long seconds = Math.max(1, (millis + 999) / 1000);
        return (int) Math.min(max, seconds);
    }

    private Admission probe(BreakerState state, Instant now) {
        BreakerState halfOpen = new BreakerState(
                Status.HALF_OPEN,
                state.token() + 1,
                state.openedAt(),
                state.openPeriod(),
                null,
                now.plus(policy.probeLease()));
        return new Admission.Probe(state.token(), halfOpen);
    }

    private static void require(BreakerState state, Status status, String what) {
        if (state.status() != status) {
            throw new IllegalStateException("only a " + status + " breaker can " + what + "; this one is "
                    + state.status() + " (token " + state.token() + ")");
        }
    }
}
