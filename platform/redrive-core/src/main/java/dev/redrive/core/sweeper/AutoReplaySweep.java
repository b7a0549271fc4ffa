package dev.redrive.core.sweeper;

import dev.redrive.core.failure.FailureClass;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The automation's part of replaying: resume replays already started (by anyone), then replay the dead letters a
 * maintenance window pre-approves. Nothing else is touched; it waits for a person.
 */
final class AutoReplaySweep {

    private final QuarantineLedger ledger;
    private final MaintenanceWindows windows;
    private final ReplayService replays;
    private final ReplayStats stats;
    private final LeaseStore leases;
    private final Clock clock;
    private final int batch;
    /** Replays checked and sent together: a multiple of ten, the SQS batch. */
    private static final int CHUNK = 50;

    AutoReplaySweep(
            QuarantineLedger ledger,
            MaintenanceWindows windows,
            ReplayService replays,
            ReplayStats stats,
            LeaseStore leases,
            Clock clock,
            int batch) {
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
        Map<String, FailureClass> classes = new HashMap<>();
        Map<String, List<String>> byReason = new LinkedHashMap<>();
        for (QuarantineState started : List.of(
                QuarantineState.UNDER_REVIEW, QuarantineState.SCHEMA_CHECK, QuarantineState.IDEMPOTENCY_CHECK)) {
            for (QuarantineRecord r : ledger.inState(started, queue, batch)) {
                classes.put(r.id(), r.classification().failureClass());
                byReason.computeIfAbsent("resuming a replay started earlier", k -> new ArrayList<>())
                        .add(r.id());
            }
        }
        List<MaintenanceWindow> approved = windows.list();
        if (!approved.isEmpty()) {
            for (QuarantineRecord r : ledger.inState(QuarantineState.QUARANTINED, queue, batch)) {
                Optional<MaintenanceWindow> window = AutoReplayPolicy.approvingWindow(r, approved, clock.instant());
                if (window.isPresent()) {
                    MaintenanceWindow w = window.get();
                    classes.put(r.id(), r.classification().failureClass());
                    byReason.computeIfAbsent(
                                    "auto-replay: " + w.dependency() + " failed inside maintenance window " + w.id()
                                            + " (" + w.start() + " to " + w.end() + ", approved by " + w.approvedBy()
                                            + ")",
                                    k -> new ArrayList<>())
                            .add(r.id());
                }
            }
        }
        Map<FailureClass, Integer> sent = new HashMap<>();
        try {
            return replay(byReason, classes, sent, fence, timeLeft, report);
        } finally {
            sent.forEach((c, count) -> stats.add(c, count, 0)); // one write per class and run, not per replay
        }
    }

    private boolean replay(
            Map<String, List<String>> byReason,
            Map<String, FailureClass> classes,
            Map<FailureClass, Integer> sent,
            Optional<LeaseToken> fence,
            BooleanSupplier timeLeft,
            SweepReport report) {
        for (Map.Entry<String, List<String>> group : byReason.entrySet()) {
            List<String> ids = group.getValue();
            for (int from = 0; from < ids.size(); from += CHUNK) {
                if (!timeLeft.getAsBoolean()) {
                    return true;
                }
                if (fence.isPresent() && fence.get().lapsed(clock.instant())) {
                    return false; // past the lease: nothing more is checked or sent
                }
                Map<String, ReplayOutcome> outcomes = replays.replayAll(
                        ids.subList(from, Math.min(ids.size(), from + CHUNK)), Actor.AUTOMATION, group.getKey(), fence);
                boolean conflicted = false;
                for (Map.Entry<String, ReplayOutcome> o : outcomes.entrySet()) {
                    FailureClass c = classes.get(o.getKey());
                    report.replayOutcome(o.getValue().getClass().getSimpleName());
                    if (o.getValue() instanceof ReplayOutcome.Sent s) {
                        sent.merge(c, 1, Integer::sum);
                        if (!s.delay().isZero()) {
                            report.paced(s.delay());
                        }
                    } else if (o.getValue() instanceof ReplayOutcome.Held h) {
                        report.held(h.lane(), h.reason());
                    } else if (o.getValue() instanceof ReplayOutcome.CheckFailed failed) {
                        report.recordFailed(o.getKey(), "replay", failed.reason());
                    }
                    conflicted |= o.getValue() instanceof ReplayOutcome.Conflict;
                }
                if (conflicted && !leases.holds(fence.orElseThrow(), clock.instant())) {
                    return false;
                }
            }
        }
        return true;
    }
}
