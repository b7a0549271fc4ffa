package dev.redrive.checkout;

import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.consumer.ExternalEffectConsumer;
import dev.redrive.core.failure.PermanentFailure;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Sends the order confirmation email once per {@code OrderPlaced} event, through the mail provider's idempotency key.
 */
public final class ConfirmationEmailConsumer extends OrderPlacedConsumer
        implements ExternalEffectConsumer<OrderPlaced> {

    public static final String NAME = CheckoutNames.CONFIRMATION_EMAIL;
    /** The dependency name failures of the mail provider are recorded under (matched by maintenance windows). */
    public static final String DEPENDENCY = CheckoutNames.EMAIL_PROVIDER;

    /**
     * An address the mail provider can take as one recipient: one {@code @} between a non-empty local part and domain,
     * no whitespace and no control character (a CR/LF would add headers). Anything else is PERMANENT
     * {@code InvalidRecipient}, the address never echoed.
     */
    static final Pattern DELIVERABLE = Pattern.compile("[^@\\s\\p{Cntrl}]+@[^@\\s\\p{Cntrl}]+");

    private final EmailOutbox outbox;

    public ConfirmationEmailConsumer(OrderPlacedReader reader, EmailOutbox outbox) {
        super(NAME, DEPENDENCY, reader);
        this.outbox = outbox;
    }

    @Override
    public String apply(OrderPlaced order, EffectContext context) {
        if (!DELIVERABLE.matcher(order.customerEmail()).matches()) {
            throw new PermanentFailure(
                    "InvalidRecipient", "order " + order.orderId() + " has no deliverable customer email address");
        }
        String subject = "Your order " + order.orderId() + " is confirmed";
        String body = String.format(
                Locale.ROOT,
                "Thank you for your order %s of %d.%02d %s.",
                order.orderId(),
                order.amountMinor() / 100,
                Math.abs(order.amountMinor() % 100),
                order.currency());
        context.checkTimeLeft("the confirmation email");
        return outbox.send(new EmailOutbox.Email(
                context.key().value(),
                context.fencingToken(),
                order.customerEmail(),
                subject,
                body,
                context.timeLeft()));
    }
}
