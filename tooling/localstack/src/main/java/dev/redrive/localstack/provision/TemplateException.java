package dev.redrive.localstack.provision;

/** A template that cannot be read or provisioned locally; the message says what and where. */
public final class TemplateException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TemplateException(String message) {
        super(message);
    }

    public TemplateException(String message, Throwable cause) {
        super(message, cause);
    }
}
