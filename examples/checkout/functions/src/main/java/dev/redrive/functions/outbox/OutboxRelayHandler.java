package dev.redrive.functions.outbox;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.checkout.placing.OutboxEvent;
import dev.redrive.checkout.placing.OutboxRelay;
import dev.redrive.checkout.placing.OutboxStreamRecords;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Lambda handler {@value Handlers#OUTBOX_RELAY}, on the orders table's DynamoDB stream (an event source mapping with
 * {@code ReportBatchItemFailures}, bisect on error, bounded retries and an on-failure destination). In stream order, it
 * publishes each outbox INSERT to the subscriber queues and marks it published; at the first event that fails (or
 * cannot be read) it stops and answers that record's sequence number as the batch's failure, so the stream retries from
 * it. The event is read as plain maps (see {@link OutboxStreamRecords}).
 */
@Named(CheckoutNames.OUTBOX_RELAY)
@Singleton
public class OutboxRelayHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    private static final Logger LOG = Logger.getLogger("dev.redrive.outbox");

    private final Instance<OutboxRelay> relay;
    private final OutboxMetrics metrics;
    private final Clock clock;

    public OutboxRelayHandler(Instance<OutboxRelay> relay, OutboxMetrics metrics, Clock clock) {
        this.relay = relay;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        List<OutboxStreamRecords.Record> records = OutboxStreamRecords.read(event);
        List<OutboxEvent> events = new ArrayList<>();
        List<String> sequenceOf = new ArrayList<>();
        String unreadableAt = null;
        for (OutboxStreamRecords.Record r : records) {
            if (r.unreadable() != null) {
                LOG.errorf(
                        "outbox relay: %s; the stream retries it, then its on-failure destination keeps it",
                        r.unreadable());
                unreadableAt = r.sequenceNumber();
                break;
            }
            r.event().ifPresent(e -> {
                events.add(e);
                sequenceOf.add(r.sequenceNumber());
            });
        }
        Instant now = clock.instant();
        OutboxRelay.Report report = relay.get().relay(events, now);
        if (report.unmarked() > 0) {
            LOG.warnf(
                    "outbox relay: %d events were published but their marks could not be written; they stay "
                            + "unpublished, and the outbox sweep republishes them (a duplicate the consumers absorb)",
                    report.unmarked());
        }
        String failedAt = unreadableAt;
        if (report.failed()) {
            OutboxEvent e = report.firstFailed();
            LOG.errorf(
                    "outbox relay: publishing event %d of order %s failed (%s); the stream retries from it",
                    e.sequence(), e.orderId(), report.failure());
            failedAt = sequenceOf.get(events.indexOf(e));
        }
        long[] lags = events.subList(0, report.published()).stream()
                .mapToLong(e -> Math.max(0, Duration.between(e.createdAt(), now).toMillis()))
                .toArray();
        metrics.relayed(report.published(), failedAt == null ? 0 : 1, lags);
        List<Map<String, String>> failures = failedAt == null ? List.of() : List.of(Map.of("itemIdentifier", failedAt));
        return Map.of("batchItemFailures", failures);
    }
}
