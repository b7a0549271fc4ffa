package dev.redrive.sweeper;

import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.core.sweeper.Sweeper;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * One run of the sweeper, as a scheduled invocation makes it (at least once, like everything else: the lease makes a
 * duplicate do nothing). Before the queues it holds every circuit breaker as the maintenance windows that exist then
 * ask ({@link BreakerHolds#holdDue}): a window added ahead of its start is held from the first run after it, and a
 * hold no window asks for any more ends. Then it sweeps every route's dead-letter queue in turn; a queue that fails
 * does not stop the others, and the run then fails (the next scheduled run is the retry: what it left is still
 * there). It exports its metrics either way, inside the run's time: the per-state figures are the counts the ledger
 * keeps as it writes (one read per route), not a count of the ledger.
 */
public final class SweepRun {

    private static final Logger LOG = Logger.getLogger("dev.redrive.sweeper");

    private final List<Route> routes;
    private final Sweeper sweeper;
    private final QuarantineLedger ledger;
    private final DeadLetterSource deadLetters;
    private final ReplayStats stats;
    private final BreakerHolds holds;
    private final Duration deadlineMargin;
    private final SweeperMetrics metrics;
    private final Clock clock;

    public SweepRun(
            List<Route> routes,
            Sweeper sweeper,
            QuarantineLedger ledger,
            DeadLetterSource deadLetters,
            ReplayStats stats,
            BreakerHolds holds,
            Duration deadlineMargin,
            SweeperMetrics metrics,
            Clock clock) {
        this.routes = List.copyOf(routes);
        this.sweeper = Objects.requireNonNull(sweeper, "sweeper");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
        this.stats = Objects.requireNonNull(stats, "stats");
        this.holds = Objects.requireNonNull(holds, "holds");
        this.deadlineMargin = Objects.requireNonNull(deadlineMargin, "deadlineMargin");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The routes this run sweeps. */
    public List<Route> routes() {
        return routes;
    }

    /**
     * Sweeps every route within {@code remaining} (the invocation's time left) as {@code owner} (who holds the
     * leases); the summary by dead-letter queue. Throws {@link IllegalStateException} naming what failed after every
     * other queue was swept.
     */
    public Map<String, Object> run(Duration remaining, String owner) {
        long started = System.nanoTime();
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
                BooleanSupplier inTime = () ->
                        Duration.ofNanos(System.nanoTime() - started).compareTo(remaining.minus(deadlineMargin)) < 0;
                SweepReport report = sweeper.sweep(route, owner, remaining.plus(deadlineMargin), inTime);
                LOG.infof("sweep of %s", report);
                reports.add(report);
                figures.add(new SweeperMetrics.QueueFigures(
                        route.deadLetterQueue(), depth, report, byState(route, inTime)));
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
        return summary(held, reports);
    }

    private static Map<String, Object> summary(List<String> held, List<SweepReport> reports) {
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

    /**
     * The route's active records by state, every state (none is 0), from the counts the ledger keeps as it writes: one
     * read, whatever the ledger holds. A queue whose counts are not complete yet (records written before counts were
     * kept) is counted first, within the run's time; when that does not finish, no figure is exported for it this run
     * (a partial count would read as records resolved) and the next run goes on.
     */
    private Map<String, Long> byState(Route route, BooleanSupplier inTime) {
        if (!ledger.establishCounts(route.sourceQueue(), inTime)) {
            LOG.warnf(
                    "the counts of %s are still being established (records written before counts were kept); "
                            + "its Quarantine figures are left out of this run and the next run goes on",
                    route.sourceQueue());
            return Map.of();
        }
        Map<QuarantineState, Long> active = ledger.countActiveByState(route.sourceQueue());
        Map<String, Long> counts = new LinkedHashMap<>();
        for (QuarantineState state : QuarantineState.values()) {
            counts.put(state.name(), active.getOrDefault(state, 0L));
        }
        return counts;
    }
}
