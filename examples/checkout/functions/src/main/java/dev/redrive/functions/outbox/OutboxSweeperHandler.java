package dev.redrive.functions.outbox;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.OutboxEvent;
import dev.redrive.checkout.placing.OutboxRelay;
import dev.redrive.functions.config.CheckoutConfig;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Lambda handler {@value Handlers#OUTBOX_SWEEPER}, on a schedule: republishes the outbox events still unpublished
 * {@code redrive.checkout.outbox.republish-after} after their commit (the relay was down, or the stream's 24 h passed),
 * and reports the age of the oldest one left, which the outbox alarm reads. The next scheduled run is its retry.
 */
@Named(CheckoutNames.OUTBOX_SWEEPER)
@Singleton
public class OutboxSweeperHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    private static final Logger LOG = Logger.getLogger("dev.redrive.outbox");

    private final Instance<OutboxRelay> relay;
    private final DynamoDbCheckoutStore orders;
    private final OutboxMetrics metrics;
    private final CheckoutConfig config;
    private final Clock clock;

    public OutboxSweeperHandler(
            Instance<OutboxRelay> relay,
            DynamoDbCheckoutStore orders,
            OutboxMetrics metrics,
            CheckoutConfig config,
            Clock clock) {
        this.relay = relay;
        this.orders = orders;
        this.metrics = metrics;
        this.config = config;
        this.clock = clock;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        Instant now = clock.instant();
        CheckoutConfig.Outbox c = config.checkout().outbox();
        OutboxRelay.Report report = relay.get().republishStale(now, c.republishAfter(), c.sweepLimit());
        List<OutboxEvent> left = orders.unpublished(now, 1);
        long oldest = left.isEmpty()
                ? 0
                : Math.max(0, Duration.between(left.get(0).createdAt(), now).toSeconds());
        int failures = report.failed() ? 1 : 0;
        metrics.swept(report.published(), failures, oldest);
        if (report.published() > 0 || report.failed()) {
            LOG.infof(
                    "outbox sweep: republished %d, first failure %s, oldest unpublished %d s",
                    report.published(), report.failure(), oldest);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("republished", report.published());
        summary.put("failed", report.failed());
        summary.put("oldestUnpublishedSeconds", oldest);
        return summary;
    }
}
