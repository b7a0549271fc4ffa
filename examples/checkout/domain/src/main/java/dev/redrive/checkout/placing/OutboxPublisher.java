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

    /** How far {@link #publishAll} got: the first {@code count} events went to every subscriber. */
    record Published(int count, String failure) {}

    /**
     * Publishes {@code events} in order, as few calls as the subscribers allow; stops counting at the first event a
     * subscriber did not take (events after it may have been sent too: they are published again, duplicates the
     * consumers absorb). By default one {@link #publish} each.
     */
    default Published publishAll(java.util.List<OutboxEvent> events) {
        int done = 0;
        for (OutboxEvent e : events) {
            try {
                publish(e);
            } catch (RuntimeException failure) {
                return new Published(done, failure.getClass().getSimpleName());
            }
            done++;
        }
        return new Published(done, null);
    }
}
