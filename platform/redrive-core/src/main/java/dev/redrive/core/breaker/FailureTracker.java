package dev.redrive.core.breaker;

import java.util.Objects;

/**
 * One sandbox's recent outcomes of calls to one dependency, in memory: whether they are bad enough to open the shared
 * breaker. It opens on {@link BreakerPolicy#consecutiveFailures()} TRANSIENT failures in a row, or once the window of
 * the last {@link BreakerPolicy#window()} calls is full and more than {@link BreakerPolicy#failureRate()} of it failed.
 * Only TRANSIENT failures of the dependency count as failures; any answer (a success, a business refusal) counts as the
 * dependency being up. Nothing is written while it does not trip, so the healthy path costs no call. Not thread-safe:
 * one per dependency per sandbox, used under its owner's lock.
 */
public final class FailureTracker {

    private final BreakerPolicy policy;
    private final boolean[] window;
    private int next;
    private int filled;
    private int failuresInWindow;
    private int consecutive;

    public FailureTracker(BreakerPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.window = new boolean[policy.window()];
    }

    /** Records a TRANSIENT failure; true when the breaker should open. */
    public boolean transientFailure() {
        consecutive++;
        record(true);
        return consecutive >= policy.consecutiveFailures()
                || (filled == window.length && failuresInWindow > policy.failureRate() * window.length);
    }

    /**
     * Why the last {@link #transientFailure()} that returned true tripped: a sentence of counts, kept in the breaker's
     * history.
     */
    public String tripReason() {
        if (consecutive >= policy.consecutiveFailures()) {
            return consecutive + " transient failures in a row in one sandbox (the limit is "
                    + policy.consecutiveFailures() + ")";
        }
        return failuresInWindow + " of the last " + window.length + " calls in one sandbox failed transiently (over "
                + Math.round(policy.failureRate() * 100) + "%)";
    }

    /** Records that the dependency answered. */
    public void answered() {
        consecutive = 0;
        record(false);
    }

    /** Forgets every outcome (the breaker closed, or this sandbox opened it). */
    public void reset() {
        java.util.Arrays.fill(window, false);
        next = 0;
        filled = 0;
        failuresInWindow = 0;
        consecutive = 0;
    }

    private void record(boolean failure) {
        if (filled == window.length && window[next]) {
            failuresInWindow--;
        }
        window[next] = failure;
        if (failure) {
            failuresInWindow++;
        }
        next = (next + 1) % window.length;
        filled = Math.min(window.length, filled + 1);
    }
}
