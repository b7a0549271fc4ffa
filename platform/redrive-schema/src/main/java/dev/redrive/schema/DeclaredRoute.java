package dev.redrive.schema;

import java.util.Objects;
import java.util.Optional;

/**
 * One route of the routes document: where one consumer's dead letters are (its source queue and dead-letter queue,
 * names or URLs), how a replay is checked without its code (its {@link EventContract}; empty for a route of the old
 * {@code REDRIVE_SWEEPER_ROUTES}, whose replays are refused), and the dependency whose breaker paces its replays.
 */
public record DeclaredRoute(
        String consumer,
        String sourceQueue,
        String deadLetterQueue,
        Optional<EventContract> contract,
        Optional<String> breaker) {

    public DeclaredRoute {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(sourceQueue, "sourceQueue");
        Objects.requireNonNull(deadLetterQueue, "deadLetterQueue");
        Objects.requireNonNull(contract, "contract");
        Objects.requireNonNull(breaker, "breaker");
    }
}
