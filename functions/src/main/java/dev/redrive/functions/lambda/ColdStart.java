package dev.redrive.functions.lambda;

import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlaced;
import dev.redrive.core.consumer.BatchProcessor;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Does at start what the first invocation would otherwise pay for: builds the AWS clients, the claim store and the
 * batch machinery, and compiles the event schemas. Lambda runs this in the init phase, which the invocation's
 * timeout does not count, so a cold sandbox's first batch is not the one that times out.
 */
@ApplicationScoped
public class ColdStart {

    private static final Logger LOG = Logger.getLogger("dev.redrive.consumer");

    void warm(@Observes StartupEvent start, BatchProcessor batches, EventSchemas schemas) {
        long t0 = System.nanoTime();
        schemas.schema(OrderPlaced.EVENT_TYPE, OrderPlaced.CURRENT_VERSION);
        schemas.schema(OrderPlaced.EVENT_TYPE, 1);
        LOG.debugf("warmed up %s in %d ms", batches.getClass().getSimpleName(), (System.nanoTime() - t0) / 1_000_000);
    }
}
