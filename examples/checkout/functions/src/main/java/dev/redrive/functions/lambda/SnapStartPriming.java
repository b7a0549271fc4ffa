package dev.redrive.functions.lambda;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.core.consumer.IdempotentConsumer;
import io.quarkus.amazon.lambda.runtime.AmazonLambdaMapperRecorder;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.util.ArrayList;
import java.util.List;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * SnapStart's priming hook: before Lambda snapshots an initialized sandbox of a SnapStart version, runs the function's
 * code paths on made-up input, so the classes its first event needs are loaded, initialized and compiled in the
 * snapshot instead of in the first invocation of every sandbox restored from it.
 *
 * <p>What it runs ({@link PrimingRun}): the Lambda event of the function's trigger read and its answer written by the
 * mapper the runtime reads events with; for a consumer, a made-up {@code OrderPlaced} parsed and schema-checked by its
 * consumer; and every AWS operation the artifact calls, on SDK clients whose HTTP client answers from memory
 * ({@link CannedAwsCalls}). <b>Nothing leaves the process</b>: no claim, no effect, no message, no metric, no AWS
 * request (the real clients are not used). A step that fails is logged and skipped: priming never fails the init.
 *
 * <p>Lambda calls {@code beforeCheckpoint} only when it initializes a SnapStart version
 * ({@code AWS_LAMBDA_INITIALIZATION_TYPE=snap-start}); an on-demand start never runs it, so without SnapStart this
 * costs nothing. In a native image org.crac has no checkpoint either, and nothing runs.
 */
@ApplicationScoped
public class SnapStartPriming implements Resource {

    private static final Logger LOG = Logger.getLogger("dev.redrive.priming");

    private final String handler;
    private final Instance<ConfirmationEmailConsumer> email;
    private final Instance<RevenueAnalyticsConsumer> revenue;

    SnapStartPriming(
            @ConfigProperty(name = "quarkus.lambda.handler") String handler,
            Instance<ConfirmationEmailConsumer> email,
            Instance<RevenueAnalyticsConsumer> revenue) {
        this.handler = handler;
        this.email = email;
        this.revenue = revenue;
    }

    /** Registers with the checkpoint coordinator at start (the bean holds it: org.crac keeps resources weakly). */
    void register(@Observes StartupEvent start) {
        Core.getGlobalContext().register(this);
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        long t0 = System.nanoTime();
        List<String> failed = prime();
        LOG.infof(
                "primed %s for its snapshot in %d ms%s",
                handler,
                (System.nanoTime() - t0) / 1_000_000,
                failed.isEmpty() ? "" : " (skipped, failing: " + failed + ")");
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        // nothing to renew: priming opened no connection and drew no randomness
    }

    /** Runs every priming step of this function; the names of those that failed. */
    List<String> prime() {
        ObjectMapper events = AmazonLambdaMapperRecorder.objectMapper;
        PrimingRun run = new PrimingRun(events == null ? new ObjectMapper() : events);
        List<String> failed = new ArrayList<>();
        run.step("event", () -> run.readEvent(handler), failed);
        consumer().ifPresent(c -> run.step("consumer", () -> run.parseOrders(c), failed));
        run.step("aws", CannedAwsCalls::callEach, failed);
        return failed;
    }

    private java.util.Optional<IdempotentConsumer<?>> consumer() {
        if (ConfirmationEmailConsumer.NAME.equals(handler)) {
            return java.util.Optional.of(email.get());
        }
        if (RevenueAnalyticsConsumer.NAME.equals(handler)) {
            return java.util.Optional.of(revenue.get());
        }
        return java.util.Optional.empty();
    }
}
