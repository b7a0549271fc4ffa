package dev.redrive.checkout;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.replay.SchemaGate;
import java.util.Map;

/**
 * The checkout example as everything around its consumers sees it, described once: the consumers by name (their
 * parsers read producer keys for the sweeper's and the replays' claim lookups), the reader they share, and the schema
 * gate with every registered upcaster. The functions build it with the real email outbox; the CLI and the local run's
 * operator with {@link #forReplayChecks}, whose email consumer reads keys and never sends.
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

    /** The consumers for reading and checking only (replays, the operator's tools): no email is ever sent. */
    public static CheckoutDeployment forReplayChecks(ObjectMapper json, String revenueTable) {
        return new CheckoutDeployment(
                json,
                new EventSchemas(),
                mail -> {
                    throw new IllegalStateException("reading idempotency keys only; this deployment never sends email");
                },
                revenueTable);
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
