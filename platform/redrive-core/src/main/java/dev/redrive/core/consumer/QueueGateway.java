package dev.redrive.core.consumer;

import dev.redrive.core.failure.FailureRecord;
import java.util.List;
import java.util.Set;

/** The queue operations a batch needs besides receive and delete (which the Lambda service does). */
public interface QueueGateway {

    /**
     * Changes the visibility of messages of {@code sourceQueue}, in as few calls as the queue allows (10 per batch
     * call on SQS).
     *
     * @return the ids of messages whose change failed (they keep the visibility they had)
     */
    Set<String> changeVisibility(String sourceQueue, List<VisibilityChange> changes);

    /**
     * Sends each message to the dead-letter queue of {@code sourceQueue}, unchanged (its body and every attribute with
     * its type) except for one added attribute holding its failure metadata; a body that cannot go inline may go by
     * claim check, and a message with no room for the attribute (a queue's limit on attributes) may leave its metadata
     * in a dead-letter note the sweeper reads ({@link dev.redrive.core.sweeper.DeadLetterNotes}). The message is then
     * acknowledged, so the Lambda service deletes it from the source: it never burns the retries of the redrive policy.
     *
     * @return the ids of messages that could not be sent; they stay in the source and are reported as failed
     */
    Set<String> deadLetter(String sourceQueue, List<DeadLetter> letters);

    /** A visibility change for one received message. */
    record VisibilityChange(String messageId, String receiptHandle, int timeoutSeconds) {}

    /**
     * A message on its way to the dead-letter queue.
     *
     * @param message        the delivery, as received
     * @param consumer       the consumer that gave up on it
     * @param idempotencyKey its claim key, or null when it had none (unreadable message)
     * @param failure        why
     */
    record DeadLetter(IncomingMessage message, String consumer, String idempotencyKey, FailureRecord failure) {}
}
