package dev.redrive.core.failure;

/** The message cannot be read: not JSON, a wrong field type, a missing key, an unknown or incompatible version. */
public class SchemaViolation extends ClassifiedException {
    private final String code;

    public SchemaViolation(String code, String message) {
        this(code, message, null);
    }

    public SchemaViolation(String code, String message, Throwable cause) {
        super(message, null, cause);
        this.code = code;
    }

    @Override
    public String errorType() {
        return code;
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.SCHEMA;
    }
}
