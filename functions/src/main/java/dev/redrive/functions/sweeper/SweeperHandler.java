package dev.redrive.functions.sweeper;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
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

/**
 * Lambda handler {@code dlq-sweeper}, invoked by the EventBridge schedule (at least once, like everything else: the
 * lease makes a duplicate invocation do nothing). Sweeps every configured dead-letter queue in turn; a queue that
 * fails does not stop the others, and the invocation then fails.
 *
 * <p>A failed invocation is not retried. Scheduler invokes Lambda asynchronously, so the schedule's retry policy only
 * covers getting the event to Lambda; after that, Lambda's async retries would apply, and the stack turns them off
 * (0 retries, events older than one sweep's timeout dropped). The next scheduled run is the retry: whatever this run
 * left in a DLQ is still there. The failure shows in the function's {@code Errors} (the sweeper-errors alarm) and, by
 * the on-failure destination, in the schedule's dead-letter queue.
 *
 * <p>The schedule event is read as a plain map: Quarkus' Lambda JSON mapper drops {@code detail-type} from
 * {@code ScheduledEvent}, and nothing in it is needed.
 */
@Named("dlq-sweeper")
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
                        .attributeNames(
                                software.amazon.awssdk.services.sqs.model.QueueAttributeName
                                        .APPROXIMATE_NUMBER_OF_MESSAGES))
                .attributes();
        return attributes.values().stream().mapToLong(Long::parseLong).sum();
    }

    private Map<String, Long> byState(Route route) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (dev.redrive.core.quarantine.QuarantineState state : dev.redrive.core.quarantine.QuarantineState.values()) {
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
