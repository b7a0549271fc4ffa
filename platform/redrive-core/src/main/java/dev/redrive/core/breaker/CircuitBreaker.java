package dev.redrive.core.breaker;

import dev.redrive.core.breaker.BreakerState.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One sandbox's handle on a dependency's shared breaker. It reads the shared state at most once per {@code cacheFor},
 * counts outcomes in memory ({@link FailureTracker}), and writes only transitions: opening when the tracker trips,
 * taking the probe lease, the probe's result. When its store fails it fails open: the call goes through and the
 * failure is reported. Thread-safe (one lock per dependency per sandbox); time is passed in.
 */
public final class CircuitBreaker {

    /**
     * What one call may do: call (or probe), or not, with how long to defer its message; a refusal also says when the
     * breaker opened ({@code openedAt}, null otherwise), the time of the failures it stands for.
     */
    public record Permit(Kind kind, int deferSeconds, BreakerState probeState, Instant openedAt) {
        /**
         * The verdict: CALL (the breaker lets calls through), PROBE (this call is the one probe of a half-open breaker,
         * its result decides the breaker), REFUSED (fail fast and defer the message).
         */
        public enum Kind {
            CALL,
            PROBE,
            REFUSED
        }

        static final Permit CALL = new Permit(Kind.CALL, 0, null, null);

        public boolean calls() {
            return kind != Kind.REFUSED;
        }

        public boolean probe() {
            return kind == Kind.PROBE;
        }
    }

    private final String dependency;
    private final BreakerStore store;
    private final CircuitBreakerRules rules;
    private final Duration cacheFor;
    private final BreakerListener listener;
    private final FailureTracker tracker;
    private BreakerState cached;
    private Instant cachedAt;

    public CircuitBreaker(
            String dependency,
            BreakerStore store,
            CircuitBreakerRules rules,
            Duration cacheFor,
            BreakerListener listener) {
        this.dependency = Objects.requireNonNull(dependency, "dependency");
        this.store = Objects.requireNonNull(store, "store");
        this.rules = Objects.requireNonNull(rules, "rules");
        this.cacheFor = Objects.requireNonNull(cacheFor, "cacheFor");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.tracker = new FailureTracker(rules.policy());
    }

    public String dependency() {
        return dependency;
    }

    /** When it opens and for how long. */
    public BreakerPolicy policy() {
        return rules.policy();
    }

    /** Whether the next call to the dependency may go, as a call or as the one probe. */
    public Permit admit(Instant now) {
        return admit(now, Optional.empty());
    }

    /**
     * Whether the next call to the dependency may go, for a message that may carry the ticket of a probe lease a replay
     * took for it: under that live lease, it is the probe. A ticket newer than this sandbox's cached breaker reads the
     * breaker again; one of another dependency is ignored.
     */
    public synchronized Permit admit(Instant now, Optional<ProbeTicket> ticket) {
        Optional<ProbeTicket> mine = ticket.filter(t -> t.dependency().equals(dependency));
        BreakerState state = current(now);
        if (mine.isPresent() && state.token() < mine.get().token()) {
            state = refresh(now);
        }
        Admission admission = rules.admit(state, now, mine);
        if (admission instanceof Admission.Call) {
            return Permit.CALL;
        }
        if (admission instanceof Admission.Probing probing) {
            return new Permit(Permit.Kind.PROBE, 0, probing.halfOpen(), null);
        }
        if (admission instanceof Admission.Probe probe) {
            Boolean won = write(
                    probe.expectedToken(),
                    state.status(),
                    probe.halfOpen(),
                    now,
                    state.status() == Status.OPEN
                            ? "the open period ended: one call probes the dependency"
                            : "the last probe's lease lapsed without a result: one call probes again");
            if (won == null) {
                return Permit.CALL; // the store failed: fail open
            }
            if (won) {
                return new Permit(Permit.Kind.PROBE, 0, probe.halfOpen(), null);
            }
            // Another sandbox wrote first: it may be probing, or its probe may have closed the breaker already.
            BreakerState read = refresh(now);
            Admission again = rules.admit(read, now);
            if (again instanceof Admission.Call) {
                return Permit.CALL;
            }
            return again instanceof Admission.Refuse r
                    ? refuse(r, now)
                    : refused(rules.policy().probeLease(), read.openedAt(), now); // its probe is due again
        }
        return refuse((Admission.Refuse) admission, now); // neither a call nor a probe
    }

    /** The dependency answered the permitted call (a success, or a refusal that is not its being down). */
    public synchronized void answered(Permit permit, Instant now) {
        if (permit.probe()) {
            listener.probed(dependency, true);
            write(
                    permit.probeState().token(),
                    Status.HALF_OPEN,
                    rules.probeSucceeded(permit.probeState()),
                    now,
                    "the probe succeeded: the dependency answered");
            tracker.reset();
            return;
        }
        tracker.answered();
    }

    /** The permitted call failed TRANSIENTLY because of the dependency (a timeout, a throttle, a 5xx, down). */
    public synchronized void failedTransiently(Permit permit, Instant now) {
        if (permit.probe()) {
            listener.probed(dependency, false);
            BreakerState reopened = rules.probeFailed(permit.probeState(), now);
            write(
                    permit.probeState().token(),
                    Status.HALF_OPEN,
                    reopened,
                    now,
                    "the probe failed transiently: open again for " + reopened.openPeriod());
            return;
        }
        if (tracker.transientFailure()) {
            BreakerState state = current(now);
            if (state.status() == Status.CLOSED) {
                BreakerState opened = rules.open(state, now);
                write(
                        state.token(),
                        Status.CLOSED,
                        opened,
                        now,
                        tracker.tripReason() + ": open for " + opened.openPeriod());
            }
            tracker.reset();
        }
    }

    private Permit refuse(Admission.Refuse refusal, Instant now) {
        return refused(refusal.deferFor(), refusal.state().openedAt(), now);
    }

    private Permit refused(Duration defer, Instant openedAt, Instant now) {
        Duration openFor = openedAt == null ? Duration.ZERO : Duration.between(openedAt, now);
        listener.refused(dependency, openFor);
        return new Permit(Permit.Kind.REFUSED, CircuitBreakerRules.deferralSeconds(defer), null, openedAt);
    }

    /** Writes a transition; true when written, false when another sandbox wrote first, null when the store failed. */
    private Boolean write(long expectedToken, Status from, BreakerState next, Instant now, String reason) {
        BreakerTransition entry = BreakerTransition.of(from, next, now, reason);
        try {
            if (store.transition(dependency, expectedToken, next, entry)) {
                cache(next, now);
                listener.transitioned(dependency, entry);
                return true;
            }
            refresh(now);
            return false;
        } catch (RuntimeException storeDown) {
            listener.storeFailed(dependency, storeDown);
            return null;
        }
    }

    private BreakerState current(Instant now) {
        if (cached != null && now.isBefore(cachedAt.plus(cacheFor))) {
            return cached;
        }
        return refresh(now);
    }

    private BreakerState refresh(Instant now) {
        try {
            return cache(store.read(dependency), now);
        } catch (RuntimeException storeDown) {
            listener.storeFailed(dependency, storeDown);
            // fail open, and keep the store out of the hot path for the cache period
            return cache(cached != null && cached.status() == Status.CLOSED ? cached : BreakerState.closed(), now);
        }
    }

    private BreakerState cache(BreakerState state, Instant now) {
        cached = state;
        cachedAt = now;
        return state;
    }
}
