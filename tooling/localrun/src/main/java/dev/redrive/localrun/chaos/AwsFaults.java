package dev.redrive.localrun.chaos;

import dev.redrive.localrun.eventsource.AwsTrafficProxy.Verdict;
import java.util.Map;
import java.util.UUID;

/**
 * AWS's own error answers, as the SDKs read them: DynamoDB's JSON errors ({@code __type}, {@code x-amzn-ErrorType})
 * with their status codes, a cancelled transaction with one cancellation reason per item, S3's XML {@code SlowDown},
 * and SQS's JSON {@code InternalError} (with the {@code x-amzn-query-error} header of its JSON protocol).
 */
public final class AwsFaults {

    private static final String DYNAMODB_JSON = "application/x-amz-json-1.0";
    private static final String DYNAMODB_PREFIX = "com.amazonaws.dynamodb.v20120810#";

    private AwsFaults() {}

    /** DynamoDB refusing a call for throughput, as it answers it. */
    public static Verdict dynamoDbThrottle() {
        return dynamoDb(
                400,
                "ProvisionedThroughputExceededException",
                "The level of configured provisioned throughput for the table was exceeded. Consider increasing your "
                        + "provisioning level with the UpdateTable API.");
    }

    static Verdict dynamoDbInternalError() {
        return dynamoDb(500, "InternalServerError", "Internal server error");
    }

    /**
     * A transaction conflict: for TransactWriteItems, a cancelled transaction whose item {@code conflicting} (of
     * {@code items}) is in conflict with an ongoing transaction; for a single-item write, TransactionConflictException.
     */
    static Verdict dynamoDbTransactionConflict(boolean transaction, int items, int conflicting) {
        if (!transaction) {
            return dynamoDb(400, "TransactionConflictException", "Transaction is ongoing for the item");
        }
        StringBuilder codes = new StringBuilder();
        StringBuilder reasons = new StringBuilder();
        for (int i = 0; i < items; i++) {
            boolean conflict = i == conflicting;
            codes.append(i == 0 ? "" : ", ").append(conflict ? "TransactionConflict" : "None");
            reasons.append(i == 0 ? "" : ",")
                    .append(
                            conflict
                                    ? "{\"Code\":\"TransactionConflict\",\"Message\":\"Transaction is ongoing for the item\"}"
                                    : "{\"Code\":\"None\"}");
        }
        String body = "{\"__type\":\"" + DYNAMODB_PREFIX + "TransactionCanceledException\",\"message\":\"Transaction "
                + "cancelled, please refer cancellation reasons for specific reasons [" + codes + "]\","
                + "\"CancellationReasons\":[" + reasons + "]}";
        return Verdict.answer(400, DYNAMODB_JSON, headers("TransactionCanceledException"), body);
    }

    static Verdict s3SlowDown() {
        String id = requestId();
        return Verdict.answer(
                503,
                "application/xml",
                Map.of("x-amz-request-id", id),
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code><Message>Please reduce your "
                        + "request rate.</Message><RequestId>" + id + "</RequestId></Error>");
    }

    static Verdict sqsInternalError() {
        return Verdict.answer(
                500,
                DYNAMODB_JSON,
                Map.of("x-amzn-RequestId", requestId(), "x-amzn-query-error", "InternalError;Receiver"),
                "{\"__type\":\"com.amazonaws.sqs#InternalError\",\"message\":\"We encountered an internal error. "
                        + "Please try again.\"}");
    }

    private static Verdict dynamoDb(int status, String type, String message) {
        return Verdict.answer(
                status,
                DYNAMODB_JSON,
                headers(type),
                "{\"__type\":\"" + DYNAMODB_PREFIX + type + "\",\"message\":\"" + message + "\"}");
    }

    private static Map<String, String> headers(String type) {
        return Map.of("x-amzn-ErrorType", type, "x-amzn-RequestId", requestId());
    }

    private static String requestId() {
        return UUID.randomUUID().toString().replace("-", "").toUpperCase(java.util.Locale.ROOT);
    }
}
