package dev.redrive.core.claim;

/**
 * Where a delivery came from: the source queue (name or ARN) and the SQS message id of that delivery. Kept on the
 * claim so a dead letter can be joined back to its attempts.
 */
public record MessageOrigin(String queue, String messageId) {
    public static final MessageOrigin UNKNOWN = new MessageOrigin("", "");
}
