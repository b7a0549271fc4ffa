package dev.redrive.checkout;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.replay.SchemaGate;
import java.util.Map;

/**
 * The checkout example's consumers as its functions deploy them, described once: the consumers by name, the reader
 * they share (the declared contract of {@link CheckoutContracts}), and the schema gate. The sweeper, the CLI and the
 * local run's operator do not use it: they check replays by the routes document, built from the same declaration.
 */
public final class CheckoutDeployment {

    private final EventSchemas schemas;
    private final OrderPlacedReader reader;
    private final ConfirmationEmailConsumer email;
    private final RevenueAnalyticsConsumer revenue;
    private final CheckoutSchemaGate schemaGate;

    private CheckoutDeployment(ObjectMapper json, EventSchemas schemas, EmailOutbox outbox, String revenueTable) {
        this.schemas = schemas;
        this.reader = new OrderPlacedReader(json, schemas);
        this.email = new ConfirmationEmailConsumer(reader, outbox);
        this.revenue = new RevenueAnalyticsConsumer(reader, revenueTable);
        this.schemaGate = new CheckoutSchemaGate(json, schemas, CheckoutSchemaGate.upcasters());
    }

    /** The consumers as deployed: the email goes to {@code outbox}, revenue to {@code revenueTable}. */
    public static CheckoutDeployment of(
            ObjectMapper json, EventSchemas schemas, EmailOutbox outbox, String revenueTable) {
        return new CheckoutDeployment(json, schemas, outbox, revenueTable);
    }

    /** Every consumer, by its name. */
    public Map<String, IdempotentConsumer<?>> consumers() {
        return Map.of(email.name(), email, revenue.name(), revenue);
    }

    /** The schema check of a replay: the current {@code OrderPlaced} schema and the registered upcasters. */
    public SchemaGate schemaGate() {
        return schemaGate;
    }

    public EventSchemas schemas() {
        return schemas;
    }

    public OrderPlacedReader reader() {
        return reader;
    }

    public ConfirmationEmailConsumer email() {
        return email;
    }

    public RevenueAnalyticsConsumer revenue() {
        return revenue;
    }
}
