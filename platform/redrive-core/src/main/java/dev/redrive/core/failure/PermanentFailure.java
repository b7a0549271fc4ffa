package dev.redrive.core.failure;

/** A business rule or validation rejected the message; no retry can help. */
public class PermanentFailure extends ClassifiedException {
    private final String code;

    public PermanentFailure(String code, String message) {
        super(message, null, null);
        this.code = code;
    }

    @Override
    public String errorType() {
        return code;
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.PERMANENT;
    }
}
