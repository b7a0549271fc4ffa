package dev.redrive.core.failure;

/**
 * How an effect's HTTP answer is classified, the way {@code AwsFailureRules} classifies the AWS SDK's: a 2xx is
 * success; 408 (request timeout), 429 (too many requests) and every 5xx are {@link TransientFailure}s of the
 * dependency (retried with backoff, counted by its circuit breaker); any other status is a {@link PermanentFailure}
 * coded {@code HTTP<status>} (dead-lettered at once: the same request would get the same answer).
 */
public final class HttpStatuses {

    private HttpStatuses() {}

    /**
     * Returns when {@code status} is a 2xx; throws the failure it means otherwise.
     *
     * @param status     the HTTP status of the answer
     * @param what       the call, for the message ("the receipts webhook")
     * @param dependency the dependency called, whose breaker counts a TRANSIENT failure
     */
    public static void check(int status, String what, String dependency) {
        if (status >= 200 && status <= 299) {
            return;
        }
        if (isTransient(status)) {
            throw new TransientFailure(what + " answered HTTP " + status, dependency);
        }
        throw new PermanentFailure("HTTP" + status, what + " answered HTTP " + status);
    }

    /** Whether another try may get another answer: 408, 429 and the 5xx. */
    public static boolean isTransient(int status) {
        return status == 408 || status == 429 || (status >= 500 && status <= 599);
    }
}
