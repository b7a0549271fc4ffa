package dev.redrive.cli;

/**
 * An expected failure of a command, shown as one line on stderr with its exit code: a bad argument
 * ({@link ExitCodes#USAGE}), missing configuration or an AWS resource that is not there ({@link ExitCodes#CONFIG}).
 */
public final class CliException extends RuntimeException {

    private final int exitCode;

    private CliException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    /** A bad argument: unknown id, malformed filter, a window that ends before it starts. */
    public static CliException usage(String message) {
        return new CliException(message, ExitCodes.USAGE);
    }

    /** Missing or wrong configuration, or AWS said no. */
    public static CliException config(String message) {
        return new CliException(message, ExitCodes.CONFIG);
    }

    public int exitCode() {
        return exitCode;
    }
}
