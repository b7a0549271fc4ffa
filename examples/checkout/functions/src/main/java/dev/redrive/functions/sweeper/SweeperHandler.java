package dev.redrive.functions.sweeper;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.lambda.EmfOutput;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Lambda handler {@code dlq-sweeper}, invoked by the EventBridge schedule (at least once, like everything else: the
 * lease makes a duplicate invocation do nothing). Sweeps every configured dead-letter queue in turn; a queue that
 * fails does not stop the others, and the invocation then fails. Before the queues, it holds every circuit breaker
 * as the maintenance windows that exist then ask ({@link BreakerHolds#holdDue}): a window added ahead of its start is
 * held from the first run after it, and a hold no window asks for any more ends.
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
@Named(Handlers.DLQ_SWEEPER)
@Singleton
public class SweeperHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    private static final Logger LOG = Logger.getLogger("dev.redrive.sweeper");
    private static final Duration UNKNOWN_DEADLINE_REMAINING = Duration.ofMinutes(5);

    private final List<Route> routes;
    private final Sweeper sweeper;
    private final QuarantineLedger ledger;
    private final DeadLetterSource deadLetters;
    private final ReplayStats stats;
    private final RedriveConfig config;
    private final BreakerHolds holds;
    private final Clock clock;
    private final SweeperMetrics metrics = new SweeperMetrics(EmfOutput.stdout());

    public SweeperHandler(
            SweeperRuntime.SweptRoutes routes,
            Sweeper sweeper,
            QuarantineLedger ledger,
            DeadLetterSource deadLetters,
            ReplayStats stats,
            RedriveConfig config,
            BreakerHolds holds,
            Clock clock) {
        this.routes = routes.all();
        this.sweeper = sweeper;
        this.ledger = ledger;
        this.deadLetters = deadLetters;
        this.stats = stats;
        this.config = config;
        this.holds = holds;
        this.clock = clock;
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
        List<String> held = List.of();
        try {
            held = holds.holdDue(clock.instant());
            if (!held.isEmpty()) {
                LOG.infof("held the circuit breakers of maintenance windows %s until their ends", held);
            }
        } catch (RuntimeException e) {
            LOG.errorf(
                    e,
                    "holding the breakers of the maintenance windows that have started failed; the next run tries "
                            + "again, and the queues are swept now");
            failed.add("the breaker holds of the maintenance windows");
        }
        for (Route route : routes) {
            try {
                long depth =
                        deadLetters.approximateDepth(route.deadLetterQueue()).visible();
                SweepReport report = sweeper.sweep(
                        route,
                        owner,
                        remaining.plus(margin),
                        () -> Duration.ofNanos(System.nanoTime() - started).compareTo(remaining.minus(margin)) < 0);
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
        metrics.export(reports, stats.totals());
        metrics.exportQueues(figures);
        if (!failed.isEmpty()) {
            throw new IllegalStateException("sweep failed for " + failed + " (see the log); other queues were swept");
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        if (!held.isEmpty()) {
            summary.put("breakersHeldForWindows", held);
        }
        for (SweepReport r : reports) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("skippedLeaseHeld", r.skippedLeaseHeld());
            s.put("fencedOut", r.wasFencedOut());
            s.put("quarantined", r.quarantinedTotal());
            s.put("replayOutcomes", r.replayOutcomes());
            s.put("paced", r.pacedCount());
            s.put("longestPaceDelayMs", r.longestPaceDelay().toMillis());
            s.put("heldByLane", r.heldByLane());
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

    private Map<String, Long> byState(Route route) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (QuarantineState state : QuarantineState.values()) {
            counts.put(state.name(), ledger.count(state, route.sourceQueue()));
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
