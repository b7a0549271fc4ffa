package dev.redrive.core.claim;

import dev.redrive.core.failure.ClassifiedException;
import dev.redrive.core.failure.FailureClass;

/**
 * A transactional effect was refused by the store. {@link Kind#CONFLICT} (a concurrent transaction on the same items)
 * may pass and is TRANSIENT; {@link Kind#CONDITION_FAILED} (the effect's own condition said no) is PERMANENT.
 */
public final class EffectConflict extends ClassifiedException {

    public enum Kind {
        CONFLICT,
        CONDITION_FAILED
    }

    private final Kind kind;

    public EffectConflict(Kind kind, String message, String dependency) {
        super(message, dependency, null);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    @Override
    public String errorType() {
        return kind == Kind.CONFLICT ? "TransactionConflict" : "EffectConditionFailed";
    }

    @Override
    public FailureClass failureClass() {
        return kind == Kind.CONFLICT ? FailureClass.TRANSIENT : FailureClass.PERMANENT;
    }
}
