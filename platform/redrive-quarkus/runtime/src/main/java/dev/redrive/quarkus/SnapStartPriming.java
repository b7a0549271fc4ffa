package dev.redrive.quarkus;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.quarkus.internal.CannedAwsCalls;
import dev.redrive.quarkus.internal.PrimingRun;
import io.quarkus.amazon.lambda.runtime.AmazonLambdaMapperRecorder;
import io.quarkus.arc.ClientProxy;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * SnapStart's priming hook, for every function of the application: before Lambda snapshots an initialized sandbox of
 * a SnapStart version, runs the function's code paths on made-up input, so the classes its first event needs are
 * loaded, initialized and compiled in the snapshot instead of in the first invocation of every restored sandbox.
 *
 * <p>What it runs, for the handler {@code quarkus.lambda.handler} names: for an {@link IdempotentSqsHandler}, an SQS
 * event read and a partial batch response written by the mapper the runtime reads events with, and the handler's
 * {@linkplain IdempotentSqsHandler#primingMessage() priming message} parsed (and schema-checked) by its consumer; the
 * application's {@link PrimingStep}s that prime it; an EMF metrics document rendered into nothing; and every AWS
 * operation Redrive calls, on SDK clients whose HTTP client answers from memory. <b>Nothing leaves the process</b>: no
 * claim, no effect, no message, no metric, no AWS request. A step that fails is logged and skipped: priming never fails
 * the init.
 *
 * <p>Lambda calls {@code beforeCheckpoint} only when it initializes a SnapStart version; an on-demand start never runs
 * it, and in a native image org.crac has no checkpoint, so nothing runs.
 */
@ApplicationScoped
public class SnapStartPriming implements Resource {

    private static final Logger LOG = Logger.getLogger("dev.redrive.priming");

    private final String handler;
    private final Instance<IdempotentSqsHandler> handlers;
    private final Instance<PrimingStep> steps;

    SnapStartPriming(
            @ConfigProperty(name = "quarkus.lambda.handler") Optional<String> handler,
            @Any Instance<IdempotentSqsHandler> handlers,
            @Any Instance<PrimingStep> steps) {
        this.handler = handler.orElse("");
        this.handlers = handlers;
        this.steps = steps;
    }

    /** Registers with the checkpoint coordinator at start (the bean holds it: org.crac keeps resources weakly). */
    void register(@Observes StartupEvent start) {
        Core.getGlobalContext().register(this);
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        long t0 = System.nanoTime();
        List<String> failed = prime().failed();
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

    /**
     * What one priming did.
     *
     * @param ran    the steps run, in order ({@code event}, {@code consumer}, a {@link PrimingStep}'s class name,
     *               {@code metrics}, {@code aws})
     * @param failed those of them that failed (logged, and skipped)
     */
    public record Outcome(List<String> ran, List<String> failed) {

        /** Copies the lists. */
        public Outcome {
            ran = List.copyOf(ran);
            failed = List.copyOf(failed);
        }
    }

    /** Runs every priming step of this function. */
    public Outcome prime() {
        return prime(handler);
    }

    /** Runs every priming step as the function whose handler is {@code name} would. */
    public Outcome prime(String name) {
        ObjectMapper events = AmazonLambdaMapperRecorder.objectMapper;
        PrimingRun run = new PrimingRun(events == null ? new ObjectMapper() : events);
        List<String> failed = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        Instance<IdempotentSqsHandler> named = handlers.select(NamedLiteral.of(name));
        if (named.isResolvable()) {
            IdempotentSqsHandler consumerHandler = named.get();
            run.step("event", run::readSqsEvent, ran, failed);
            consumerHandler
                    .primingMessage()
                    .ifPresent(body ->
                            run.step("consumer", () -> run.parse(consumerHandler.consumer(), body), ran, failed));
        }
        for (PrimingStep step : steps) {
            if (step.primes(name)) {
                run.step(
                        ClientProxy.unwrap(step).getClass().getSimpleName(),
                        () -> step.prime(name, run.events()),
                        ran,
                        failed);
            }
        }
        run.step("metrics", PrimingRun::renderMetrics, ran, failed);
        run.step("aws", CannedAwsCalls::callEach, ran, failed);
        return new Outcome(ran, failed);
    }
}
