package dev.redrive.core.sweeper;

import java.util.Objects;

/**
 * One consumer's pair of queues the sweeper looks after: dead letters arrive in {@code deadLetterQueue} and are
 * replayed to {@code sourceQueue} (both names).
 */
public record Route(String consumer, String sourceQueue, String deadLetterQueue) {
    public Route {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(sourceQueue, "sourceQueue");
        Objects.requireNonNull(deadLetterQueue, "deadLetterQueue");
    }

    /** The lease that makes one sweeper at a time responsible for this dead-letter queue. */
    public String leaseName() {
        return "sweeper#" + deadLetterQueue;
    }
}
