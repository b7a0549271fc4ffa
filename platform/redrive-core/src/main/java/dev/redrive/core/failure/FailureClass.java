package dev.redrive.core.failure;

/** Why a message failed, which decides where it goes next. */
public enum FailureClass {
    /** Timeouts, throttling, 5xx, connection errors, a dependency being down: retried with backoff. */
    TRANSIENT(true),
    /** A business rule or validation said no: retrying cannot help; straight to the DLQ. */
    PERMANENT(false),
    /** Cannot be deserialized, or an unknown or incompatible version: straight to the DLQ. */
    SCHEMA(false),
    /** Crashed or timed out the consumer; never classified at failure, inferred later from the evidence. */
    POISON(false);

    private final boolean retryable;

    FailureClass(boolean retryable) {
        this.retryable = retryable;
    }

    /** Whether the consumer retries it in place (with backoff) rather than dead-lettering it at once. */
    public boolean retryable() {
        return retryable;
    }
}
