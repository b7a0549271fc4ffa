package dev.redrive.checkout;

import dev.redrive.aws.failure.AwsFailureRules;
import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.consumer.ExternalEffectConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.FailureClassifier;
import dev.redrive.core.failure.PermanentFailure;
import java.util.Locale;

/**
 * Sends the order confirmation email once per {@code OrderPlaced} event, through the mail provider's idempotency key.
 */
public final class ConfirmationEmailConsumer implements ExternalEffectConsumer<OrderPlaced> {

    public static final String NAME = "confirmation-email";
    /** The dependency name failures of the mail provider are recorded under (matched by maintenance windows). */
    public static final String DEPENDENCY = "email-provider";

    private final OrderPlacedReader reader;
    private final EmailOutbox outbox;
    private final FailureClassifier classifier;

    public ConfirmationEmailConsumer(OrderPlacedReader reader, EmailOutbox outbox) {
        this.reader = reader;
        this.outbox = outbox;
        this.classifier = AwsFailureRules.classifier(DEPENDENCY).build();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ParsedMessage<OrderPlaced> parse(IncomingMessage message) {
        return reader.read(message);
    }

    @Override
    public java.util.Optional<String> producerKey(IncomingMessage message) {
        return reader.eventId(message.body());
    }

    @Override
    public FailureClassifier classifier() {
        return classifier;
    }

    @Override
    public String apply(OrderPlaced order, EffectContext context) {
        if (!order.customerEmail().contains("@")) {
            throw new PermanentFailure("InvalidRecipient", "order " + order.orderId()
                    + " has no deliverable customer email address");
        }
        String subject = "Your order " + order.orderId() + " is confirmed";
        String body = String.format(Locale.ROOT, "Thank you for your order %s of %d.%02d %s.", order.orderId(),
                order.amountMinor() / 100, Math.abs(order.amountMinor() % 100), order.currency());
        return outbox.send(new EmailOutbox.Email(context.key().value(), context.fencingToken(),
                order.customerEmail(), subject, body));
    }
}
