package dev.redrive.aws.failure;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureClassifier;
import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * How AWS SDK failures classify: throttling, 5xx, timeouts and connection failures are TRANSIENT; any other 4xx
 * (access denied, validation, missing resource) is PERMANENT: the message waits in quarantine while the
 * configuration is fixed, then is replayed.
 */
public final class AwsFailureRules {

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
            if (e.isThrottlingException() || status == 429 || status == 408 || status >= 500) {
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
