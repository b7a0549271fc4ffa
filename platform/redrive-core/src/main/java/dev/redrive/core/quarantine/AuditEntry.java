package dev.redrive.core.quarantine;

import java.time.Instant;
import java.util.Objects;

/** One transition of a dead letter: from, to, when, who, why. Append-only. */
public record AuditEntry(QuarantineState from, QuarantineState to, Instant at, Actor actor, String reason) {
    public AuditEntry {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(actor, "actor");
        reason = reason == null ? "" : reason;
    }
}
