package dev.redrive.core.claim;

import dev.redrive.core.failure.ClassifiedException;
import dev.redrive.core.failure.FailureClass;

/**
 * A transactional effect was refused by the store. {@link Kind#CONFLICT} (a concurrent transaction on the same items)
 * may pass and is TRANSIENT; {@link Kind#CONDITION_FAILED} (the effect's own condition said no) is PERMANENT.
 */
public final class EffectConflict extends ClassifiedException {

    /**
     * Why the store refused the transaction, in which nothing was written: CONFLICT, a refusal that may pass (a
     * concurrent transaction on the same items), so the message is retried; CONDITION_FAILED, the condition of one of
     * the effect's own writes said no, which a retry would not change.
     */
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
