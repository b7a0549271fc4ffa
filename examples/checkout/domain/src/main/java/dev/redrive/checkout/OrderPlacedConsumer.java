package dev.redrive.checkout;

import dev.redrive.aws.failure.AwsFailureRules;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.FailureClassifier;
import java.util.Optional;

/**
 * What every consumer of {@code OrderPlaced} shares: its name, reading any schema version through the
 * {@link OrderPlacedReader}, the event id as producer key (of any version), and AWS failures classified under its
 * dependency. A subclass is an {@link IdempotentConsumer} of one kind (external effect or transactional); these
 * methods are its consumer methods.
 */
abstract class OrderPlacedConsumer {

    private final String name;
    private final OrderPlacedReader reader;
    private final FailureClassifier classifier;

    OrderPlacedConsumer(String name, String dependency, OrderPlacedReader reader) {
        this.name = name;
        this.reader = reader;
        this.classifier = AwsFailureRules.classifier(dependency).build();
    }

    public final String name() {
        return name;
    }

    public final ParsedMessage<OrderPlaced> parse(IncomingMessage message) {
        return reader.read(message);
    }

    public final Optional<String> producerKey(IncomingMessage message) {
        return reader.eventId(message.body());
    }

    public final FailureClassifier classifier() {
        return classifier;
    }
}
