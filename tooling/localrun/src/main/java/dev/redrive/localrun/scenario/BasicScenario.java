package dev.redrive.localrun.scenario;

import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A handful of messages through both consumers, each explained: three orders, a duplicate of the first with a new
 * message id, a body that is not JSON, and an order in a currency the revenue report refuses.
 */
final class BasicScenario implements Scenario {

    @Override
    public void run(LocalSystem system, RunOptions o, Progress progress, RunReport report) throws Exception {
        ScenarioSupport s = new ScenarioSupport(system, progress, report);
        report.phase("place a handful through POST /orders");
        List<Order> orders = new ArrayList<>(s.placeOrders(3, "basic"));
        CheckoutTraffic.Checkout first = s.checkout.answered().values().stream()
                .filter(c -> c.order().eventId().equals(orders.get(0).eventId()))
                .findFirst()
                .orElseThrow();
        CheckoutTraffic.Checkout again = s.checkout.retry(first);
        report.check(
                "a client's retry of a placed checkout (same key, same body) is answered the same order",
                again.placed() && again.order().equals(first.order()));
        // another producer's order in a currency the consumers refuse, SQS delivering the first order's event a second
        // time (a new message id), and a body that is not JSON: sent straight to the queues
        Order yen = new Order("evt-basic-yen", "o-yen", 120_000, "JPY", 2);
        s.traffic.send(List.of(yen), List.of(s.emailQueue, s.revenueQueue));
        orders.add(yen);
        s.traffic.send(List.of(orders.get(0)), List.of(s.emailQueue, s.revenueQueue)); // the duplicate
        for (String queue : List.of(s.emailQueue, s.revenueQueue)) {
            system.aws().sqs().sendMessage(b -> b.queueUrl(queue).messageBody("this is not JSON"));
        }
        s.await(
                "every message to be handled",
                () -> s.observer.depth(s.emailQueue) == 0
                        && s.observer.depth(s.revenueQueue) == 0
                        && s.observer.completed(LocalSystem.EMAIL) >= 4
                        && s.observer.completed(LocalSystem.REVENUE) >= 3);

        report.phase("sweep the dead letters");
        s.await("the sweeper to quarantine the dead letters", () -> {
            try {
                s.sweep();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
            return s.observer.depth(s.emailDlq) == 0
                    && s.observer.depth(s.revenueDlq) == 0
                    && s.observer.ledger().size() >= 3;
        });

        report.phase("explain");
        List<QuarantineRecord> ledger = s.observer.ledger();
        Map<String, Object> perMessage = new LinkedHashMap<>();
        for (Order order : orders) {
            Map<String, String> fate = new LinkedHashMap<>();
            for (String consumer : List.of(LocalSystem.EMAIL, LocalSystem.REVENUE)) {
                String key = consumer + "#" + order.eventId();
                String status = s.observer.claimStatus(key);
                QuarantineRecord r = ledger.stream()
                        .filter(q -> key.equals(q.idempotencyKey()))
                        .findFirst()
                        .orElse(null);
                fate.put(
                        consumer,
                        "COMPLETED".equals(status)
                                ? "applied once"
                                        + (order == orders.get(0)
                                                ? "; its duplicate (new message id) was acknowledged without "
                                                        + "running the effect"
                                                : "")
                                : r != null
                                        ? "dead-lettered: " + r.classification().failureClass() + " "
                                                + r.classification().errorType() + " — "
                                                + r.classification().reason()
                                        : "claim " + status);
            }
            perMessage.put(
                    order.eventId() + (order.version() == 2 ? "" : " (v1)") + " " + order.amountMinor() + " "
                            + order.currency(),
                    fate);
        }
        Map<String, String> malformed = new LinkedHashMap<>();
        ledger.stream()
                .filter(q -> q.idempotencyKey() == null)
                .forEach(q -> malformed.put(
                        q.consumer(),
                        "dead-lettered at once: " + q.classification().failureClass() + " "
                                + q.classification().errorType() + " — "
                                + q.classification().reason()));
        perMessage.put("\"this is not JSON\"", malformed);
        report.put("what happened to each message", perMessage);

        report.phase("reconcile");
        Set<String> revenueExpected = new HashSet<>(s.traffic.sent().keySet());
        revenueExpected.remove(yen.eventId());
        Reconciliation.reconcile(system, s.observer, s.traffic.sent(), revenueExpected, report);
        Reconciliation.reconcileCheckouts(system, s.checkout, report);
        s.closingFigures();
    }
}
