package dev.redrive.functions.sweeper;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.functions.metrics.EmfOutput;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Lambda handler {@code dlq-sweeper}, invoked by the EventBridge schedule (at least once, like everything else: the
 * lease makes a duplicate invocation do nothing). Sweeps every configured dead-letter queue in turn; a queue that
 * fails does not stop the others, and the invocation then fails so the schedule's retry and the Lambda error alarm
 * see it.
 *
 * <p>The schedule event is read as a plain map: Quarkus' Lambda JSON mapper drops {@code detail-type} from
 * {@code ScheduledEvent}, and nothing in it is needed.
 */
@Named(Handlers.DLQ_SWEEPER)
@Singleton
public class SweeperHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    private static final Logger LOG = Logger.getLogger("dev.redrive.sweeper");
    private static final Duration UNKNOWN_DEADLINE_REMAINING = Duration.ofMinutes(5);

    private final SweeperRuntime.Sweeping sweeping;
    private final RedriveConfig config;
    private final SweeperMetrics metrics = new SweeperMetrics(EmfOutput.stdout());

    public SweeperHandler(SweeperRuntime.Sweeping sweeping, RedriveConfig config) {
        this.sweeping = sweeping;
        this.config = config;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        long started = System.nanoTime();
        Duration remaining = remaining(context);
        Duration margin = config.sweeper().deadlineMargin();
        String owner = (context == null ? "local" : context.getFunctionName() + "/" + context.getAwsRequestId());
        List<SweepReport> reports = new ArrayList<>();
        List<SweeperMetrics.QueueFigures> figures = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (Route route : sweeping.routes()) {
            try {
                long depth = depth(route.deadLetterQueue());
                SweepReport report = sweeping.sweeper()
                        .sweep(
                                route,
                                owner,
                                remaining.plus(margin),
                                () -> Duration.ofNanos(System.nanoTime() - started)
                                                .compareTo(remaining.minus(margin))
                                        < 0);
                LOG.infof("sweep of %s", report);
                reports.add(report);
                figures.add(new SweeperMetrics.QueueFigures(route.deadLetterQueue(), depth, report, byState(route)));
            } catch (RuntimeException e) {
                LOG.errorf(
                        e,
                        "sweep of %s failed; its dead letters stay in the queue for the next run",
                        route.deadLetterQueue());
                failed.add(route.deadLetterQueue());
            }
        }
        metrics.export(reports, sweeping.stats().totals());
        metrics.exportQueues(figures);
        if (!failed.isEmpty()) {
            throw new IllegalStateException("sweep failed for " + failed + " (see the log); other queues were swept");
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        for (SweepReport r : reports) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("skippedLeaseHeld", r.skippedLeaseHeld());
            s.put("fencedOut", r.wasFencedOut());
            s.put("quarantined", r.quarantinedTotal());
            s.put("replayOutcomes", r.replayOutcomes());
            s.put(
                    "replaysReturned",
                    r.replaysReturnedByClass().values().stream()
                            .mapToInt(Integer::intValue)
                            .sum());
            s.put("archived", r.archivedToStoreCount());
            s.put("archiveObjects", r.archiveObjects());
            summary.put(r.route().deadLetterQueue(), s);
        }
        return summary;
    }

    private long depth(String deadLetterQueue) {
        var attributes = sweeping.sqs()
                .getQueueAttributes(b -> b.queueUrl(sweeping.queues().url(deadLetterQueue))
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                .attributes();
        return attributes.values().stream().mapToLong(Long::parseLong).sum();
    }

    private Map<String, Long> byState(Route route) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (QuarantineState state : QuarantineState.values()) {
            counts.put(state.name(), sweeping.ledger().count(state, route.sourceQueue()));
        }
        return counts;
    }

    private static Duration remaining(Context context) {
        if (context == null || context.getRemainingTimeInMillis() <= 0) {
            return UNKNOWN_DEADLINE_REMAINING;
        }
        return Duration.ofMillis(context.getRemainingTimeInMillis());
    }
}
