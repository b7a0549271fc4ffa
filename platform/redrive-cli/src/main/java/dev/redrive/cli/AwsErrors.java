package dev.redrive.cli;

import java.util.Locale;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * Turns AWS SDK failures into one short line that says what is missing or wrong and what to set, for operators (never
 * a stack trace; the SDK's whole message only with {@code --verbose}).
 */
final class AwsErrors {

    private AwsErrors() {}

    /** The operator's line for {@code e}, naming the configured resources where AWS does not. */
    static String describe(Throwable e, Settings settings) {
        if (e instanceof ResourceNotFoundException) {
            return "DynamoDB table not found (" + oneLine(e) + "). Tables in use: " + settings.describeTables();
        }
        if (e instanceof QueueDoesNotExistException) {
            return "SQS queue not found (" + oneLine(e) + "). Check the queue name, " + Settings.ROUTES
                    + " (or --routes), and the region";
        }
        if (e instanceof NoSuchBucketException) {
            return "S3 bucket '" + settings.archiveBucket() + "' not found (" + Settings.ARCHIVE_BUCKET
                    + " or --archive-bucket)";
        }
        if (e instanceof NoSuchKeyException) {
            return "a stored payload is missing from bucket '" + settings.archiveBucket() + "' (" + oneLine(e) + ")";
        }
        if (e instanceof AwsServiceException s) {
            String service =
                    s.awsErrorDetails() == null ? "AWS" : s.awsErrorDetails().serviceName();
            return service + " refused the request (" + s.statusCode() + " " + errorCode(s) + "): " + brief(oneLine(e));
        }
        if (e instanceof SdkClientException) {
            String m = oneLine(e);
            if (m.contains("credentials")) {
                return "no AWS credentials: set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (any "
                        + "values for local AWS, with AWS_ENDPOINT_URL); --verbose shows the AWS SDK's reason";
            }
            if (m.toLowerCase(Locale.ROOT).contains("region")) {
                return "no AWS region: set AWS_REGION (or a region in your AWS profile); --verbose shows the AWS "
                        + "SDK's reason";
            }
            return "could not reach AWS: " + brief(m) + " (check AWS_ENDPOINT_URL* and the network)";
        }
        return oneLine(e);
    }

    /** Longer SDK messages are cut here; {@code --verbose} shows them whole. */
    static final int BRIEF = 200;

    /** {@code message}, cut to {@link #BRIEF} characters with a pointer to {@code --verbose}. */
    static String brief(String message) {
        return message.length() <= BRIEF ? message : message.substring(0, BRIEF) + "... (--verbose shows all)";
    }

    /** The message of {@code e} on one line, without the SDK's request-id trailer. */
    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int trailer = m.indexOf(" (Service: ");
        if (trailer > 0) {
            m = m.substring(0, trailer);
        }
        return m.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    private static String errorCode(AwsServiceException s) {
        return s.awsErrorDetails() == null || s.awsErrorDetails().errorCode() == null
                ? ""
                : s.awsErrorDetails().errorCode();
    }
}
