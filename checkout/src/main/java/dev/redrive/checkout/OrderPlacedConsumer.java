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
 * dependency.
 */
abstract class OrderPlacedConsumer implements IdempotentConsumer<OrderPlaced> {

    private final String name;
    private final OrderPlacedReader reader;
    private final FailureClassifier classifier;

    OrderPlacedConsumer(String name, String dependency, OrderPlacedReader reader) {
        this.name = name;
        this.reader = reader;
        this.classifier = AwsFailureRules.classifier(dependency).build();
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final ParsedMessage<OrderPlaced> parse(IncomingMessage message) {
        return reader.read(message);
    }

    @Override
    public final Optional<String> producerKey(IncomingMessage message) {
        return reader.eventId(message.body());
    }

    @Override
    public final FailureClassifier classifier() {
        return classifier;
    }
}
