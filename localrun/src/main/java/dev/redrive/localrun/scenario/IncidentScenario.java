package dev.redrive.localrun.scenario;

import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The incident from the design: checkout traffic; the mail provider goes down inside an approved maintenance window
 * and N orders dead-letter in the email consumer (K of them pre-migration v1 payloads, which dead-letter in both
 * consumers); the producer re-sends M of them once the provider is back; the sweeper quarantines everything,
 * replays what the window pre-approved and marks the M as already applied; a person replays the K through the
 * upcaster; the sweeper archives what is past retention. Then every order is accounted for and every effect counted.
 */
final class IncidentScenario implements Scenario {

    static final String WINDOW = "chg-mail-001";

    @Override
    public void run(LocalSystem system, RunOptions o, Progress progress, RunReport report) throws Exception {
        ScenarioSupport s = new ScenarioSupport(system, progress, report);
        Operator operator = new Operator(system, s.observer, Actor.person("demo-operator"));
        int t = o.orders();
        int n = o.deadLettered();
        int m = o.alreadyApplied();
        int k = o.legacy();

        report.phase("normal traffic: " + t + " orders");
        progress.step("sending " + t + " orders to both consumers");
        List<Order> normal = s.traffic.newOrders(t, 0, "normal");
        s.traffic.send(normal, List.of(s.emailQueue, s.revenueQueue));
        s.await("normal traffic to be processed", () -> s.observer.completed(LocalSystem.EMAIL) >= t
                && s.observer.completed(LocalSystem.REVENUE) >= t);

        report.phase("outage: " + n + " orders while the mail provider is down");
        Instant start = Instant.now();
        operator.windows().add(new MaintenanceWindow(WINDOW, ConfirmationEmailConsumer.DEPENDENCY,
                start.minusSeconds(60), start.plus(Duration.ofMinutes(30)), "change-board",
                "planned mail provider maintenance"));
        progress.step("maintenance window " + WINDOW + " approved for " + ConfirmationEmailConsumer.DEPENDENCY
                + "; the mail provider goes down; " + n + " orders arrive (" + k + " pre-migration v1)");
        system.emailProviderOutage(true);
        List<Order> hit = s.traffic.newOrders(n, k, "outage");
        s.traffic.send(hit, List.of(s.emailQueue, s.revenueQueue));
        s.await("the outage's orders to be dead-lettered by the email consumer", () ->
                s.observer.depth(s.emailQueue) == 0 && s.observer.depth(s.emailDlq) + s.ledgerCount(LocalSystem.EMAIL)
                        >= n && s.observer.depth(s.revenueQueue) == 0
                        && s.observer.completed(LocalSystem.REVENUE) >= t + n - k);
        report.tell(n + " orders dead-lettered in the email consumer during the outage (" + k
                + " of them at once as SCHEMA, the rest by the redrive policy after retries with backoff); the "
                + "revenue consumer applied the " + (n - k) + " current-version ones and dead-lettered the " + k
                + " v1 ones");

        report.phase("recovery: provider back, " + m + " orders re-sent by the producer");
        system.emailProviderOutage(false);
        MaintenanceWindow opened = operator.windows().find(WINDOW).orElseThrow();
        operator.windows().add(new MaintenanceWindow(WINDOW, opened.dependency(), opened.start(), Instant.now(),
                opened.approvedBy(), opened.reason() + " (closed when the provider recovered)"));
        List<Order> resent = hit.subList(k, k + m);
        s.traffic.send(resent, List.of(s.emailQueue, s.revenueQueue));
        s.await("the re-sent orders to be applied", () -> s.observer.completed(LocalSystem.EMAIL) >= t + m);
        report.tell("the provider recovered and the window closed; the producer re-sent " + m
                + " of the dead-lettered orders, applied at once (and acknowledged as duplicates by revenue)");

        report.phase("sweep: quarantine, auto-replay, mark already applied");
        Map<String, String> sweeps = new HashMap<>();
        s.await("the sweeper to resolve the window's dead letters", () -> {
            try {
                sweeps.put("last", s.sweep());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
            List<QuarantineRecord> email = s.observer.ledger().stream()
                    .filter(r -> r.consumer().equals(LocalSystem.EMAIL)).toList();
            return s.observer.depth(s.emailDlq) == 0 && email.stream().filter(r -> r.state()
                    == QuarantineState.REPLAYED).count() >= n - k;
        });
        s.await("the replays to be applied", () -> s.observer.completed(LocalSystem.EMAIL) >= t + n - k);
        List<QuarantineRecord> afterSweep = s.observer.ledger();
        long alreadyApplied = afterSweep.stream().filter(r -> r.note().contains("already applied")).count();
        long autoSent = afterSweep.stream().filter(r -> r.state() == QuarantineState.REPLAYED
                && r.note().startsWith("sent")).count();
        report.tell("the sweeper quarantined every dead letter, replayed " + autoSent + " pre-approved by window "
                + WINDOW + ", and marked " + alreadyApplied + " as already applied (nothing sent for those)");

        report.phase("operator: replay the pre-migration orders");
        int replayed = 0;
        Map<String, Integer> outcomes = new HashMap<>();
        for (QuarantineRecord r : s.observer.ledger()) {
            if (r.state() == QuarantineState.QUARANTINED && r.classification().failureClass() == FailureClass.SCHEMA) {
                ReplayOutcome outcome = operator.replay(r, "the OrderPlaced v1 upcaster is approved");
                outcomes.merge(outcome.getClass().getSimpleName() + (outcome instanceof ReplayOutcome.Sent sent
                        ? " (" + sent.upcast() + ")" : ""), 1, Integer::sum);
                replayed++;
            }
        }
        s.await("the upcast orders to be applied", () -> s.observer.completed(LocalSystem.EMAIL) >= t + n
                && s.observer.completed(LocalSystem.REVENUE) >= t + n);
        report.tell("demo-operator replayed " + replayed + " SCHEMA dead letters through the same checks: "
                + outcomes);

        report.phase("archive: resolved dead letters past retention");
        Duration retention = Duration.parse(system.environmentOf(LocalSystem.SWEEPER)
                .get("REDRIVE_SWEEPER_RETENTION"));
        Instant newest = s.observer.ledger().stream().map(QuarantineRecord::arrivedAt).max(Instant::compareTo)
                .orElse(Instant.now());
        progress.step("waiting for the retention (" + retention + ") of the newest dead letter to pass");
        s.await("the retention to pass", () -> Instant.now().isAfter(newest.plus(retention).plusSeconds(1)));
        s.await("the sweeper to archive every dead letter", () -> {
            try {
                s.sweep();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
            return s.observer.ledger().stream().allMatch(QuarantineRecord::archivedToStore);
        });
        report.tell("the sweeper archived " + s.observer.ledger().size() + " resolved dead letters to S3 in "
                + s.observer.archiveObjects().size() + " gzip JSON Lines object(s); the ledger keeps tombstones");

        report.phase("reconcile");
        Map<String, Order> all = s.traffic.sent();
        Set<String> revenueExpected = new HashSet<>(all.keySet());
        Reconciliation.reconcile(system, s.observer, all, revenueExpected, report);
        s.closingFigures();
        report.put("last sweep", sweeps.getOrDefault("last", ""));
    }
}
