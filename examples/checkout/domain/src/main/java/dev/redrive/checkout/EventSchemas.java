package dev.redrive.checkout;

import dev.redrive.schema.SchemaRegistry;

/**
 * The checkout's event schemas, from {@code schemas/<type>/v<n>.json} on this module's classpath, read through this
 * class's own loader: the generic {@link SchemaRegistry} of {@code redrive-schema} over the example's resources.
 */
public final class EventSchemas extends SchemaRegistry {

    public EventSchemas() {
        super(EventSchemas.class, "schemas");
    }
}
