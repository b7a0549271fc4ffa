package dev.redrive.core.breaker;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.breaker.BreakerState.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The transitions of a dependency's shared circuit breaker, as pure rules (time passed in):
 *
 * <pre>
 *   CLOSED --open (a sandbox's FailureTracker trips)--&gt; OPEN(period)
 *   OPEN --admit after openUntil--&gt; HALF_OPEN(probe lease, token+1)     one caller; the rest are refused
 *   HALF_OPEN --admit after the lease lapsed--&gt; HALF_OPEN(new lease, token+1)
 *   HALF_OPEN --probeFailed--&gt; OPEN(min(2 x period, cap))
 *   HALF_OPEN --probeSucceeded--&gt; CLOSED
 *   any --withHold(until: the windows holding it)--&gt; OPEN held (until the latest end of those windows, token+1)
 *   OPEN held --withHold(none: no window holds it any more)--&gt; OPEN(until now, token+1): the next call probes
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

    /**
     * {@link #admit(BreakerState, Instant)} for a caller that may carry the ticket of a probe lease taken for it (a
     * replay's message): when the breaker is HALF_OPEN under that ticket's token and its lease is live, the caller is
     * that probe ({@link Admission.Probing}); otherwise the ticket changes nothing.
     */
    public Admission admit(BreakerState state, Instant now, Optional<ProbeTicket> ticket) {
        if (ticket.isPresent()
                && state.status() == Status.HALF_OPEN
                && state.token() == ticket.get().token()
                && now.isBefore(state.probeLeaseUntil())) {
            return new Admission.Probing(state);
        }
        return admit(state, now);
    }

    /**
     * A probe asked for by a person: an OPEN breaker's open period ends now, so the next call (a consumer's or a
     * replay's) probes; a HALF_OPEN one whose probe has not answered is OPEN until now, so the next call probes again.
     *
     * @throws IllegalStateException when it is CLOSED (nothing to probe) or held by maintenance windows (their hold
     *                               ends first)
     */
    public static BreakerState probeNow(BreakerState current, Instant now) {
        if (current.status() == Status.CLOSED) {
            throw new IllegalStateException("the breaker is CLOSED: calls go through, there is nothing to probe");
        }
        if (current.held() && current.openUntil().isAfter(now)) {
            throw new IllegalStateException("the breaker is held OPEN by maintenance windows until "
                    + current.openUntil() + "; their hold ends first");
        }
        if (current.status() == Status.OPEN && !current.openUntil().isAfter(now)) {
            return current; // its open period is over: the next call probes already
        }
        return new BreakerState(
                Status.OPEN, current.token() + 1, current.openedAt(), current.openPeriod(), now, null, false);
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
     * The breaker as maintenance windows ask at {@code now}: the one rule of holds. {@code until} is the latest end of
     * the windows of its dependency that hold it and last at {@code now} (empty when none does); the hold is derived
     * from the windows that exist, so it follows them when they are added, replaced or removed.
     *
     * <ul>
     *   <li>Asked to hold until a time to come: OPEN and held until exactly then, whatever state it is in (it keeps when
     *       it first opened, if it was open): calls are refused and messages deferred until {@code until}, after which a
     *       probe runs, as after any open period. Unchanged if it is held until then already, or open of its own at
     *       least as long (not held: its own period ends it).
     *   <li>Asked nothing while a hold still runs (its windows were removed, replaced, or stopped holding): OPEN until
     *       now and no longer held, so the next call probes.
     *   <li>Otherwise unchanged (a hold that has run out is left to its probe).
     * </ul>
     *
     * @return the breaker to write, or {@code current} itself when nothing is to change
     */
    public static BreakerState withHold(BreakerState current, Instant now, Optional<Instant> until) {
        if (until.isPresent()) {
            Instant end = until.get();
            if (!end.isAfter(now)) {
                throw new IllegalArgumentException(
                        "a breaker is held open only until a time to come: " + end + " is not after " + now);
            }
            if (current.status() == Status.OPEN
                    && (current.held()
                            ? current.openUntil().equals(end)
                            : !current.openUntil().isBefore(end))) {
                return current;
            }
            Instant openedAt = current.openedAt() != null ? current.openedAt() : now;
            return new BreakerState(
                    Status.OPEN, current.token() + 1, openedAt, Duration.between(now, end), end, null, true);
        }
        if (current.held() && current.openUntil().isAfter(now)) {
            return new BreakerState(
                    Status.OPEN, current.token() + 1, current.openedAt(), current.openPeriod(), now, null, false);
        }
        return current;
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
