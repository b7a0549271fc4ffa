package dev.redrive.localrun.scenario;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * A poison message: one order kills the email consumer's sandbox every time it is delivered (as an out-of-memory
 * would). Nothing can be recorded, the redrive policy moves it to the DLQ after maxReceiveCount receives, the sweeper
 * infers POISON from the evidence (no failure recorded, the claim's attempt vanished), and a person archives it with
 * a note. The other orders are not held back.
 */
final class PoisonScenario implements Scenario {

    @Override
    public void run(LocalSystem system, RunOptions o, Progress progress, RunReport report) throws Exception {
        ScenarioSupport s = new ScenarioSupport(system, progress, report);
        int others = Math.max(o.orders() / 5, 10);
        report.phase("poison: 1 order that crashes the consumer, " + others + " that do not");
        // the customer's address marks the poison order's event (its id is the checkout's to choose)
        system.crashEmailSandboxOn("-poison@example.com");
        Order poison = s.placeOrders(1, "poison").get(0);
        s.await("the poison order's first delivery", () -> s.observer.completed(LocalSystem.REVENUE) >= 1);
        s.placeOrders(others, "good");
        s.await(
                "the good orders to be applied",
                () -> s.observer.completed(LocalSystem.EMAIL) >= others
                        && s.observer.completed(LocalSystem.REVENUE) >= others + 1);
        report.tell("the " + others + " other orders were applied while the poison order kept crashing its sandbox");
        s.await(
                "the redrive policy to move the poison order to the DLQ",
                () -> s.observer.depth(s.emailQueue) == 0
                        && (s.observer.depth(s.emailDlq) > 0 || s.ledgerCount(LocalSystem.EMAIL) > 0));

        report.phase("sweep and decide");
        s.await("the sweeper to quarantine it", () -> {
            try {
                s.sweep();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
            return s.ledgerCount(LocalSystem.EMAIL) > 0;
        });
        QuarantineRecord quarantined = s.observer.ledger().stream()
                .filter(r -> r.consumer().equals(LocalSystem.EMAIL))
                .findFirst()
                .orElseThrow();
        report.tell("quarantined as " + quarantined.classification().failureClass() + " "
                + quarantined.classification().errorType() + ": "
                + quarantined.classification().reason());
        Operator operator = new Operator(system, s.observer, Actor.person("demo-operator"));
        boolean archived = operator.archive(
                quarantined,
                "crashes the email consumer's sandbox on every delivery; " + "handed to the team (BUG-123), archived");
        report.tell("demo-operator archived it with a note: " + archived);
        report.check(
                "the poison order was classified POISON from the evidence",
                quarantined.classification().failureClass() == FailureClass.POISON);

        report.phase("reconcile");
        Set<String> revenue = new HashSet<>(s.traffic.sent().keySet());
        Reconciliation.reconcile(system, s.observer, s.traffic.sent(), revenue, report);
        Reconciliation.reconcileCheckouts(system, s.checkout, report);
        s.closingFigures();
        report.put(
                "poison record",
                Optional.of(quarantined)
                        .map(r -> r.id() + " " + r.state() + " -> ARCHIVED")
                        .orElse(""));
    }
}
