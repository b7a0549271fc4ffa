package dev.redrive.localrun.lambda;

import java.time.Duration;

/** How one invocation ended, as Lambda's service sees it. */
public sealed interface InvocationResult {

    Duration duration();

    /** The function answered; {@code body} is its response. */
    record Response(String body, Duration duration) implements InvocationResult {}

    /** The function reported an error (or its initialization failed). */
    record FunctionError(String errorType, String body, Duration duration) implements InvocationResult {}

    /** No answer before the deadline; the sandbox is reset. */
    record Timeout(Duration duration) implements InvocationResult {}
}
