package dev.redrive.checkout.placing;

/**
 * Where the relay publishes the outbox's events: every subscriber of the event (on AWS: each consumer's SQS queue,
 * sent to directly). A publish that fails part way is published again whole: the consumers absorb the duplicate.
 */
public interface OutboxPublisher {

    /**
     * Publishes {@code event} to every subscriber.
     *
     * @throws RuntimeException when a subscriber did not take it (the relay retries the event whole)
     */
    void publish(OutboxEvent event);
}
