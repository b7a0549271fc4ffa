package dev.redrive.core.quarantine;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where a dead letter stands. The graph:
 * <pre>
 * QUARANTINED → UNDER_REVIEW → SCHEMA_CHECK → IDEMPOTENCY_CHECK → REPLAYED | ARCHIVED
 *                              SCHEMA_CHECK → ARCHIVED       (incompatible, no safe upcast)
 * QUARANTINED | UNDER_REVIEW → ARCHIVED                      (a person decides, or retention expires)
 * UNDER_REVIEW | IDEMPOTENCY_CHECK → QUARANTINED             (review given back; it waits again)
 * REPLAYED → QUARANTINED                                     (the replay dead-lettered again)
 * </pre>
 */
public enum QuarantineState {
    QUARANTINED,
    UNDER_REVIEW,
    SCHEMA_CHECK,
    IDEMPOTENCY_CHECK,
    REPLAYED,
    ARCHIVED;

    /** The states this one may move to. */
    public Set<QuarantineState> next() {
        return switch (this) {
            case QUARANTINED -> EnumSet.of(UNDER_REVIEW, ARCHIVED);
            case UNDER_REVIEW -> EnumSet.of(SCHEMA_CHECK, ARCHIVED, QUARANTINED);
            case SCHEMA_CHECK -> EnumSet.of(IDEMPOTENCY_CHECK, ARCHIVED);
            case IDEMPOTENCY_CHECK -> EnumSet.of(REPLAYED, ARCHIVED, QUARANTINED);
            case REPLAYED -> EnumSet.of(QUARANTINED);
            case ARCHIVED -> EnumSet.noneOf(QuarantineState.class);
        };
    }

    public boolean canMoveTo(QuarantineState to) {
        return next().contains(to);
    }

    /** Resolved: nothing more happens unless the message comes back. */
    public boolean resolved() {
        return this == REPLAYED || this == ARCHIVED;
    }
}
