package dev.redrive.core.payload;

import dev.redrive.core.failure.SchemaViolation;

/**
 * A claim check whose payload cannot be had: the pointer is malformed, or the object it names is gone (deleted,
 * expired by a lifecycle rule, never written). SCHEMA: the message is dead-lettered at once with this reason, and a
 * replay of it is refused, as no retry can bring the payload back. {@link ClaimCheckForbidden} is the case where the
 * store would not say whether it is gone.
 */
public sealed class ClaimCheckMissing extends SchemaViolation permits ClaimCheckForbidden {

    /** The error type failures of this kind are recorded under. */
    public static final String ERROR_TYPE = "ClaimCheckPayloadMissing";

    public ClaimCheckMissing(String reason) {
        super(ERROR_TYPE, reason);
    }

    public ClaimCheckMissing(String reason, Throwable cause) {
        super(ERROR_TYPE, reason, cause);
    }
}
