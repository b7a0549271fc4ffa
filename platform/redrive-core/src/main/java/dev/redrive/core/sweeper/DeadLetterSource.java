package dev.redrive.core.sweeper;

import java.util.List;

/** The dead-letter queue as the sweeper sees it. */
public interface DeadLetterSource {

    /** Up to ten dead letters; empty when the queue is drained. */
    List<ArrivedDeadLetter> receive(String deadLetterQueue);

    /** Deletes quarantined dead letters (by receipt handle); only called once their records are durable. */
    void delete(String deadLetterQueue, List<ArrivedDeadLetter> letters);

    /**
     * How many messages wait in {@code queue} (a dead-letter queue, or the source queue it belongs to), as the queue
     * reports them: approximate, and read before a sweep changes them.
     */
    QueueDepth approximateDepth(String queue);

    /** A queue's approximate depth: visible, received and not yet deleted (in flight), delayed. */
    record QueueDepth(long visible, long inFlight, long delayed) {
        @Override
        public String toString() {
            return visible + " visible, " + inFlight + " in flight, " + delayed + " delayed";
        }
    }
}
