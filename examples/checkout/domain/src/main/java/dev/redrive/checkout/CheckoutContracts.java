package dev.redrive.checkout;

import dev.redrive.schema.ContractFiles;
import dev.redrive.schema.DeclaredRoute;
import dev.redrive.schema.EventContract;
import dev.redrive.schema.RoutesDocument;
import java.util.List;
import java.util.Optional;

/**
 * The checkout's event contract, declared once as files on this module's class path and read the same way by its
 * consumers ({@link OrderPlacedReader}), by the routes document the IaC writes for the sweeper and the CLI, and by the
 * schema-evolution gate: {@code contracts/OrderPlaced.json} (the key {@code /eventId}, the type {@code /eventType}, the
 * version {@code /version}), {@code schemas/OrderPlaced/v<n>.json} and {@code upcasters/OrderPlaced/v1.json} (the money
 * migration from v1 to v2 as an RFC 6902 JSON Patch: {@code customerEmail} becomes {@code customer.email},
 * {@code totalCents} and {@code currency} become {@code total.amountMinor} and {@code total.currency}; nothing is
 * invented, every other field is kept).
 */
public final class CheckoutContracts {

    private CheckoutContracts() {}

    /** The contract of {@code consumer}, a reader of {@code OrderPlaced}. */
    public static EventContract orderPlaced(String consumer) {
        return ContractFiles.read(consumer, OrderPlaced.EVENT_TYPE, ContractFiles.classpath(CheckoutContracts.class));
    }

    /** The route of {@code consumer} with the {@code OrderPlaced} contract. */
    public static DeclaredRoute route(String consumer, String sourceQueue, String deadLetterQueue, String breaker) {
        return new DeclaredRoute(
                consumer,
                sourceQueue,
                deadLetterQueue,
                Optional.of(orderPlaced(consumer)),
                Optional.ofNullable(breaker));
    }

    /** The routes of both consumers, with their queues (names or URLs); the email's replays are paced by its breaker. */
    public static RoutesDocument routes(
            String emailSource, String emailDeadLetters, String revenueSource, String revenueDeadLetters) {
        return new RoutesDocument(List.of(
                route(
                        ConfirmationEmailConsumer.NAME,
                        emailSource,
                        emailDeadLetters,
                        ConfirmationEmailConsumer.DEPENDENCY),
                route(RevenueAnalyticsConsumer.NAME, revenueSource, revenueDeadLetters, null)));
    }
}
