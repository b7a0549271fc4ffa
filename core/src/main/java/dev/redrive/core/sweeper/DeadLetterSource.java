package dev.redrive.core.sweeper;

import java.util.List;

/** The dead-letter queue as the sweeper sees it. */
public interface DeadLetterSource {

    /** Up to ten dead letters; empty when the queue is drained. */
    List<ArrivedDeadLetter> receive(String deadLetterQueue);

    /** Deletes quarantined dead letters (by receipt handle); only called once their records are durable. */
    void delete(String deadLetterQueue, List<ArrivedDeadLetter> letters);
}
