package dev.redrive.functions.checkout;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.redrive.checkout.placing.GhostReconciliation;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.functions.config.RedriveConfig;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Lambda handler {@value Handlers#CHECKOUT_RECONCILIATION}, on a schedule: voids the ghost transactions (see
 * {@link GhostReconciliation}): checkouts authorized or reserved whose order was never written and whose client did not
 * come back within the grace. The next scheduled run is its retry.
 */
@Named(Handlers.CHECKOUT_RECONCILIATION)
@Singleton
public class CheckoutReconciliationHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    private static final Logger LOG = Logger.getLogger("dev.redrive.checkout");

    private final GhostReconciliation reconciliation;
    private final RedriveConfig config;
    private final Clock clock;

    public CheckoutReconciliationHandler(GhostReconciliation reconciliation, RedriveConfig config, Clock clock) {
        this.reconciliation = reconciliation;
        this.config = config;
        this.clock = clock;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        RedriveConfig.Reconciliation c = config.checkout().reconciliation();
        GhostReconciliation.Report report = reconciliation.run(clock.instant(), c.lease(), c.limit());
        if (report.voided() > 0 || report.providerUnreachable() > 0) {
            LOG.infof(
                    "checkout reconciliation: voided %d abandoned checkouts, %d left for the next run (provider "
                            + "unreachable), %d taken by a retry meanwhile",
                    report.voided(), report.providerUnreachable(), report.skipped());
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("voided", report.voided());
        summary.put("providerUnreachable", report.providerUnreachable());
        summary.put("skipped", report.skipped());
        return summary;
    }
}
