package dev.redrive.aws.failure;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureClassifier;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * How AWS SDK failures classify: throttling, 5xx, timeouts and connection failures are TRANSIENT, and so are the few
 * 4xx answers a retry fixes ({@link #TRANSIENT_CLIENT_ERRORS}); any other 4xx (access denied, validation, missing
 * resource) is PERMANENT: the message waits in quarantine while the configuration is fixed, then is replayed.
 */
public final class AwsFailureRules {

    /**
     * 4xx error codes that pass on their own: a conditional write racing another on the same S3 key (409
     * ConditionalRequestConflict), a DynamoDB item held by a transaction in flight (400 TransactionConflictException),
     * an upload S3 timed out (400 RequestTimeout), expired session credentials (refreshed before the retry).
     */
    static final Set<String> TRANSIENT_CLIENT_ERRORS = Set.of(
            "ConditionalRequestConflict",
            "TransactionConflictException",
            "RequestTimeout",
            "ExpiredToken",
            "ExpiredTokenException");

    private AwsFailureRules() {}

    /** A classifier builder with the AWS rule, recording failures against {@code dependency}. */
    public static FailureClassifier.Builder classifier(String dependency) {
        return FailureClassifier.builder().rule(t -> classify(t, dependency));
    }

    static Optional<Classification> classify(Throwable t, String dependency) {
        if (t instanceof AwsServiceException e) {
            int status = e.statusCode();
            String code = e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null
                    ? "HTTP" + status
                    : e.awsErrorDetails().errorCode();
            String reason = code + " (HTTP " + status + ") from " + dependency;
            if (e.isThrottlingException()
                    || status == 429
                    || status == 408
                    || status >= 500
                    || TRANSIENT_CLIENT_ERRORS.contains(code)) {
                return Optional.of(new Classification(FailureClass.TRANSIENT, code, reason, dependency));
            }
            return Optional.of(new Classification(FailureClass.PERMANENT, code, reason, dependency));
        }
        if (t instanceof ApiCallTimeoutException || t instanceof SdkClientException) {
            return Optional.of(new Classification(
                    FailureClass.TRANSIENT,
                    t.getClass().getSimpleName(),
                    dependency + " unreachable: " + t.getClass().getSimpleName(),
                    dependency));
        }
        return Optional.empty();
    }
}
