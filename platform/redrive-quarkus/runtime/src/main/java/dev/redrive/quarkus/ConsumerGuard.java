package dev.redrive.quarkus;

import java.util.Objects;

/**
 * Declares that a consumer's effect calls a dependency whose circuit breaker guards it: produce one per guarded
 * consumer as a CDI bean ({@code @Produces ConsumerGuard mail() { return new ConsumerGuard("receipts",
 * "mail-provider"); }}). The breaker's state is shared by every sandbox through the breakers' table; its settings are
 * {@code redrive.breakers.<dependency>.*}. A consumer no guard names calls its dependency unguarded. This is the
 * plain-Java {@code Redrive.guardedBy(dependency)}.
 *
 * @param consumer   the consumer's name ({@code IdempotentConsumer.name()}, part of every claim key)
 * @param dependency the dependency its effect calls ({@code mail-provider}), the breaker's name
 */
public record ConsumerGuard(String consumer, String dependency) {

    /** Refuses blank names. */
    public ConsumerGuard {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(dependency, "dependency");
        if (consumer.isBlank() || dependency.isBlank()) {
            throw new IllegalArgumentException(
                    "a consumer guard names a consumer and a dependency, was " + consumer + " -> " + dependency);
        }
    }
}
