package dev.redrive.functions.lambda;

import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlaced;
import dev.redrive.core.consumer.BatchProcessor;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Does at start what the first invocation would otherwise pay for: builds the AWS clients, the claim store and the
 * batch machinery (by being injected them), and compiles the event schemas. Lambda runs this in the init phase, which
 * the invocation's timeout does not count, so a cold sandbox's first batch is not the one that times out.
 *
 * <p>A schema missing from the artifact fails the start: every message of that version would otherwise fail its
 * schema check at run time, be classified TRANSIENT, burn its retries and dead-letter, and the sweeper's schema gate
 * would fail the same way. That is what a native image built without the schemas as resources does; a failed init is
 * seen at once (the function never becomes ready, its errors alarm).
 */
@ApplicationScoped
public class ColdStart {

    private static final Logger LOG = Logger.getLogger("dev.redrive.consumer");

    /** The schema versions the consumers and the sweeper's schema gate read. */
    static final List<Integer> ORDER_PLACED_VERSIONS = List.of(OrderPlaced.CURRENT_VERSION, 1);

    void warm(@Observes StartupEvent start, BatchProcessor batches, EventSchemas schemas) {
        long t0 = System.nanoTime();
        List<String> missing = ORDER_PLACED_VERSIONS.stream()
                .filter(version ->
                        schemas.schema(OrderPlaced.EVENT_TYPE, version).isEmpty())
                .map(version -> "schemas/" + OrderPlaced.EVENT_TYPE + "/v" + version + ".json")
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the event schemas " + missing + " are not in the artifact: every "
                    + OrderPlaced.EVENT_TYPE + " message of those versions would fail its schema check. A native "
                    + "image must include them as resources (quarkus.native.resources.includes=schemas/**); a JVM "
                    + "artifact gets them from the checkout jar");
        }
        LOG.debugf(
                "warmed up the batch machinery and the event schemas in %d ms", (System.nanoTime() - t0) / 1_000_000);
    }
}
