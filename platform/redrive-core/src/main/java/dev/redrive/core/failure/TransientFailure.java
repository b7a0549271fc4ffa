package dev.redrive.core.failure;

/** A failure that may pass: a dependency is down, slow or throttling. Retried with backoff. */
public class TransientFailure extends ClassifiedException {
    public TransientFailure(String message, String dependency) {
        this(message, dependency, null);
    }

    public TransientFailure(String message, String dependency, Throwable cause) {
        super(message, dependency, cause);
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.TRANSIENT;
    }
}
