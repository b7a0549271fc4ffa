package dev.redrive.functions.checkout;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.checkout.placing.GhostReconciliation;
import dev.redrive.core.names.RedriveNames.Metrics;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.lambda.EmfOutput;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * Lambda handler {@value Handlers#CHECKOUT_RECONCILIATION}, on a schedule: voids the ghost transactions (see
 * {@link GhostReconciliation}): checkouts authorized or reserved whose order was never written and whose client did not
 * come back within the grace. The next scheduled run is its retry.
 */
@Named(CheckoutNames.CHECKOUT_RECONCILIATION)
@Singleton
public class CheckoutReconciliationHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    private static final Logger LOG = Logger.getLogger("dev.redrive.checkout");
    /** The time left when the context does not say (a local call): the function's timeout in the stack. */
    private static final Duration UNKNOWN_REMAINING = Duration.ofSeconds(120);
    /** Left of the invocation's time after the last lease a run takes ends. */
    private static final Duration DEADLINE_MARGIN = Duration.ofSeconds(2);

    private final GhostReconciliation reconciliation;
    private final Duration lease;
    private final int limit;
    private final Clock clock;
    private final EmfOutput emf;

    @Inject
    public CheckoutReconciliationHandler(GhostReconciliation reconciliation, CheckoutConfig config, Clock clock) {
        this(
                reconciliation,
                config.checkout().reconciliation().lease(),
                config.checkout().reconciliation().limit(),
                clock,
                EmfOutput.stdout());
    }

    CheckoutReconciliationHandler(
            GhostReconciliation reconciliation, Duration lease, int limit, Clock clock, EmfOutput emf) {
        this.reconciliation = reconciliation;
        this.lease = lease;
        this.limit = limit;
        this.clock = clock;
        this.emf = emf;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        Duration remaining = context == null || context.getRemainingTimeInMillis() <= 0
                ? UNKNOWN_REMAINING
                : Duration.ofMillis(context.getRemainingTimeInMillis());
        Instant deadline = clock.instant().plus(remaining).minus(DEADLINE_MARGIN);
        GhostReconciliation.Report report = reconciliation.run(clock, deadline, lease, limit);
        export(report);
        if (report.voided() > 0 || report.notEnded() > 0 || report.deferred() > 0) {
            LOG.infof(
                    "checkout reconciliation: voided %d abandoned checkouts, %d not ended (the provider did not "
                            + "confirm the void; retaken first next run), %d left for the next run (no time left), "
                            + "%d taken by a retry meanwhile",
                    report.voided(), report.notEnded(), report.deferred(), report.skipped());
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("voided", report.voided());
        summary.put("notEnded", report.notEnded());
        summary.put("deferred", report.deferred());
        summary.put("skipped", report.skipped());
        return summary;
    }

    /** {@code CheckoutAttemptsVoided}, {@code CheckoutAttemptsNotEnded} and {@code CheckoutAttemptsDeferred}, EMF. */
    private void export(GhostReconciliation.Report report) {
        MetricsLogger m = new MetricsLogger(emf);
        m.setNamespace(Metrics.NAMESPACE);
        m.setDimensions(new DimensionSet());
        m.putMetric(Metrics.CHECKOUT_ATTEMPTS_VOIDED, report.voided(), Unit.COUNT);
        m.putMetric(Metrics.CHECKOUT_ATTEMPTS_NOT_ENDED, report.notEnded(), Unit.COUNT);
        m.putMetric(Metrics.CHECKOUT_ATTEMPTS_DEFERRED, report.deferred(), Unit.COUNT);
        m.flush();
    }
}
