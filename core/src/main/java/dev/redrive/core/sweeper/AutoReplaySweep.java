package dev.redrive.core.sweeper;

import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.AutoReplayPolicy;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The automation's part of replaying: resume replays already started (by anyone), then replay the dead letters a
 * maintenance window pre-approves. Nothing else is touched; it waits for a person.
 */
public final class AutoReplaySweep {

    private final QuarantineLedger ledger;
    private final MaintenanceWindows windows;
    private final ReplayService replays;
    private final ReplayStats stats;
    private final LeaseStore leases;
    private final Clock clock;
    private final int batch;

    public AutoReplaySweep(QuarantineLedger ledger, MaintenanceWindows windows, ReplayService replays,
            ReplayStats stats, LeaseStore leases, Clock clock, int batch) {
        this.ledger = ledger;
        this.windows = windows;
        this.replays = replays;
        this.stats = stats;
        this.leases = leases;
        this.clock = clock;
        this.batch = batch;
    }

    /** Returns false when the lease was lost. */
    boolean run(Route route, Optional<LeaseToken> fence, BooleanSupplier timeLeft, SweepReport report) {
        Optional<String> queue = Optional.of(route.sourceQueue());
        for (QuarantineState started : List.of(QuarantineState.UNDER_REVIEW, QuarantineState.SCHEMA_CHECK,
                QuarantineState.IDEMPOTENCY_CHECK)) {
            for (QuarantineRecord r : ledger.inState(started, queue, batch)) {
                if (!timeLeft.getAsBoolean()) {
                    return true;
                }
                if (!replay(r, "resuming a replay started earlier", fence, report)) {
                    return false;
                }
            }
        }
        List<MaintenanceWindow> approved = windows.list();
        if (approved.isEmpty()) {
            return true;
        }
        for (QuarantineRecord r : ledger.inState(QuarantineState.QUARANTINED, queue, batch)) {
            if (!timeLeft.getAsBoolean()) {
                return true;
            }
            Optional<MaintenanceWindow> window = AutoReplayPolicy.approvingWindow(r, approved, clock.instant());
            if (window.isPresent()) {
                MaintenanceWindow w = window.get();
                String why = "auto-replay: " + r.classification().dependency() + " failed inside maintenance window "
                        + w.id() + " (" + w.start() + " to " + w.end() + ", approved by " + w.approvedBy() + ")";
                if (!replay(r, why, fence, report)) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean replay(QuarantineRecord r, String why, Optional<LeaseToken> fence, SweepReport report) {
        ReplayOutcome outcome = replays.replay(r.id(), Actor.AUTOMATION, why, fence, false);
        report.replayOutcome(outcome.getClass().getSimpleName(), r.classification().failureClass());
        if (outcome instanceof ReplayOutcome.Sent) {
            stats.add(r.classification().failureClass(), 1, 0);
        }
        return !(outcome instanceof ReplayOutcome.Conflict) || leases.holds(fence.orElseThrow(), clock.instant());
    }
}
