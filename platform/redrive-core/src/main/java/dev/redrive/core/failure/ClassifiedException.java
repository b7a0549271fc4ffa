package dev.redrive.core.failure;

/**
 * An exception that says what it is. Consumers throw the subclasses ({@link TransientFailure},
 * {@link PermanentFailure}, {@link SchemaViolation}) to classify their own failures explicitly.
 */
public abstract class ClassifiedException extends RuntimeException {
    private final String dependency;

    protected ClassifiedException(String message, String dependency, Throwable cause) {
        super(message, cause);
        this.dependency = dependency;
    }

    public abstract FailureClass failureClass();

    /** A stable name for the error; defaults to the class's simple name. */
    public String errorType() {
        return getClass().getSimpleName();
    }

    public String dependency() {
        return dependency;
    }
}
