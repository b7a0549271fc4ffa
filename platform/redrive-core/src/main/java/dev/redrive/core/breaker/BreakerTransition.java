package dev.redrive.core.breaker;

import dev.redrive.core.breaker.BreakerState.Status;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One entry of a breaker's history: the transition that wrote token {@code token}, when, from which state to which,
 * and why (a sentence with no message data: counts, periods, a window's id). The store keeps the last
 * {@link #KEPT} of them with the breaker, written by the same conditional write as the transition itself, so the
 * history never disagrees with the state and costs no extra call.
 *
 * @param token  the token the transition wrote (tokens grow by one per transition, so the history has no gaps)
 * @param at     when the sandbox (or operator) that wrote it decided it, to the millisecond (as it is stored)
 * @param from   the state it was decided from
 * @param to     the state it wrote
 * @param reason why, for the operator reading {@code redrive stats} or the dashboard
 */
public record BreakerTransition(long token, Instant at, Status from, Status to, String reason) {

    /** How many transitions a breaker keeps, newest first. */
    public static final int KEPT = 20;

    /** What every transition's log line starts with; the dashboard's history widget filters on it. */
    public static final String LOG_MARKER = "circuit breaker of ";

    public BreakerTransition {
        at = Objects.requireNonNull(at, "at").truncatedTo(ChronoUnit.MILLIS);
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(reason, "reason");
        if (token <= 0) {
            throw new IllegalArgumentException("a transition writes a token of 1 or more, not " + token);
        }
        if (reason.isBlank() || reason.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("a transition's reason is one line of text: '" + reason + "'");
        }
    }

    /** The entry for writing {@code next}, decided from a breaker in state {@code from} at {@code at}. */
    public static BreakerTransition of(Status from, BreakerState next, Instant at, String reason) {
        return new BreakerTransition(next.token(), at, from, next.status(), reason);
    }

    /**
     * Refuses a transition whose token does not follow {@code expectedToken} by one, or an entry that does not
     * describe {@code next} (its token and state): a store keeps the entry with the state it writes, so they must
     * agree, and the history has one slot per token.
     */
    public void requireDescribes(long expectedToken, BreakerState next) {
        if (next.token() != expectedToken + 1) {
            throw new IllegalArgumentException("a transition from token " + expectedToken + " writes token "
                    + (expectedToken + 1) + ", not " + next.token());
        }
        if (token != next.token() || to != next.status()) {
            throw new IllegalArgumentException("the history entry " + this + " does not describe the state written, "
                    + next.status() + " with token " + next.token());
        }
    }

    /** The history slot this entry takes: the store keeps the last {@link #KEPT} tokens, one slot each. */
    public int slot() {
        return (int) (token % KEPT);
    }

    /** The log line of this transition of {@code dependency}'s breaker. */
    public String logLine(String dependency) {
        return LOG_MARKER + dependency + ": " + from + " -> " + to + " (token " + token + "): " + reason;
    }
}
