package dev.redrive.testing.localaws;

/** Local AWS could not start or is not usable; the message says what is missing and how to fix it. */
public final class LocalAwsException extends RuntimeException {
    public LocalAwsException(String message) {
        super(message);
    }

    public LocalAwsException(String message, Throwable cause) {
        super(message, cause);
    }
}
