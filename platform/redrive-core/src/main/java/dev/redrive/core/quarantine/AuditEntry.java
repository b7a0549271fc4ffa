package dev.redrive.core.quarantine;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a dead letter's audit trail: what happened, when, who, why. Append-only. Most entries are transitions
 * ({@link Action#TRANSITION}: from, to; a resumed replay is one from a state to itself); a
 * {@link Action#PAYLOAD_REVEALED} entry records that a person was shown the payload's sensitive fields, and leaves the
 * state as it was ({@code from} and {@code to} both name it).
 *
 * @param from   the state before, or null for the arrival
 * @param to     the state after (for an entry that changes nothing, the state it was in)
 * @param reason why, in words (for a reveal: which fields were shown)
 * @param action what kind of entry it is
 */
public record AuditEntry(
        QuarantineState from, QuarantineState to, Instant at, Actor actor, String reason, Action action) {

    /** What kind of entry it is. */
    public enum Action {
        /** The record moved from one state to another (or was resumed in its state). */
        TRANSITION,
        /** A person was shown the payload's sensitive fields; the state is unchanged. */
        PAYLOAD_REVEALED
    }

    public AuditEntry {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(actor, "actor");
        reason = reason == null ? "" : reason;
        action = action == null ? Action.TRANSITION : action;
    }

    /** A transition (the entry every state change appends). */
    public AuditEntry(QuarantineState from, QuarantineState to, Instant at, Actor actor, String reason) {
        this(from, to, at, actor, reason, Action.TRANSITION);
    }

    /** Whether this entry is a transition (a state change, or a resumed replay), not a record of something seen. */
    public boolean transition() {
        return action == Action.TRANSITION;
    }
}
