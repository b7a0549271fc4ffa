package dev.redrive.localrun.scenario;

import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Accounts for every order sent, in every consumer: applied (claim completed), or visible in the ledger (waiting,
 * replayed or archived with a reason). Anything else is unaccounted — lost. And counts the effects: one email per
 * key, and revenue counters that add up to the orders sent, each once.
 */
public final class Reconciliation {

    private Reconciliation() {}

    public static void reconcile(
            LocalSystem system,
            Observer observer,
            Map<String, Order> orders,
            Set<String> revenueExpected,
            RunReport report) {
        List<QuarantineRecord> ledger = observer.ledger();
        Map<String, QuarantineRecord> byKey = new HashMap<>();
        ledger.forEach(r -> r.key().ifPresent(k -> byKey.put(k, r)));
        Map<String, Object> outcomes = new LinkedHashMap<>();
        List<String> unaccounted = new ArrayList<>();
        for (String consumer : List.of(LocalSystem.EMAIL, LocalSystem.REVENUE)) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (Order o : orders.values()) {
                String key = consumer + "#" + o.eventId();
                String status = observer.claimStatus(key);
                QuarantineRecord r = byKey.get(key);
                String outcome;
                if ("COMPLETED".equals(status)) {
                    outcome = "applied";
                } else if (r != null) {
                    outcome = "in ledger: " + r.state();
                } else {
                    outcome = "unaccounted (claim " + status + ")";
                    unaccounted.add(key);
                }
                counts.merge(outcome, 1, Integer::sum);
            }
            outcomes.put(consumer, counts);
        }
        report.put("outcomes per consumer (orders sent: " + orders.size() + ")", outcomes);

        Map<String, Object> ledgerFigures = new LinkedHashMap<>();
        ledgerFigures.put("records", ledger.size());
        ledgerFigures.put("byState", Observer.byState(ledger));
        ledgerFigures.put("byClass", Observer.byClass(ledger));
        ledgerFigures.put(
                "archivedToS3",
                ledger.stream().filter(QuarantineRecord::archivedToStore).count());
        Map<String, Integer> notes = new HashMap<>();
        ledger.forEach(r -> notes.merge(
                r.state() + ": "
                        + r.note()
                                .replaceAll("\\b(evt|o|q)-[\\w-]+", "<id>")
                                .replaceAll("\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z", "<time>")
                                .replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "<id>"),
                1,
                Integer::sum));
        ledgerFigures.put("latestNotes", notes);
        report.put("quarantine ledger", ledgerFigures);

        Map<String, Integer> writes = observer.emailWritesPerKey();
        long emailsExpected = orders.values().stream()
                .filter(o -> "applied".equals(statusWord(observer, LocalSystem.EMAIL, o)))
                .count();
        int maxWrites =
                writes.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        long keysWrittenTwice = writes.values().stream().filter(n -> n > 1).count();
        long[] revenue = observer.revenue();
        long expectedAmount = orders.values().stream()
                .filter(o -> revenueExpected.contains(o.eventId()))
                .mapToLong(Order::amountMinor)
                .sum();
        Map<String, Object> effects = new LinkedHashMap<>();
        effects.put("emailsWritten", writes.size());
        effects.put("emailsExpected (orders applied by the email consumer)", emailsExpected);
        effects.put("mostWritesOfOneEmailKey", maxWrites);
        effects.put("emailKeysWrittenMoreThanOnce", keysWrittenTwice);
        effects.put("revenueCountedMinor", revenue[0]);
        effects.put("revenueExpectedMinor (each order once)", expectedAmount);
        effects.put("revenueOrdersCounted", revenue[1]);
        effects.put("revenueOrdersExpected", revenueExpected.size());
        report.put("effects", effects);
        report.put("unaccounted", unaccounted.size() <= 20 ? unaccounted : unaccounted.subList(0, 20));

        // Every email of an applied order was written (the bucket may hold emails of earlier runs on this system).
        boolean emailKeysMatch = writes.keySet().containsAll(expectedEmailObjects(orders, observer));
        report.check("every email written exactly once per idempotency key", maxWrites <= 1 && emailKeysMatch);
        report.check(
                "revenue counted each order exactly once",
                revenue[0] == expectedAmount && revenue[1] == revenueExpected.size());
        report.check(
                "no order unaccounted for (applied, or visible in the ledger with its state)", unaccounted.isEmpty());
    }

    /**
     * Reconciles the checkout with what the payment provider charged and what the orders table holds
     * ({@link CheckoutAudit}): every 201 has its order and exactly one standing charge of its amount, nothing stands
     * without an order, no attempt is left open, no reservation is orphaned, and the outbox is drained. The stock
     * levels are not checked here: every scenario stocks the catalogue again on the same system.
     */
    public static void reconcileCheckouts(LocalSystem system, CheckoutTraffic checkout, RunReport report) {
        CheckoutAudit.Verdict v = CheckoutAudit.audit(
                system.aws().dynamoDb(),
                system.environmentOf(LocalSystem.CHECKOUT).get(ScenarioSupport.ORDERS_TABLE),
                system.paymentProvider().charges(),
                checkout.answered(),
                Optional.empty());
        CheckoutAudit.report(v, report);
        report.put("payment provider calls", system.paymentProvider().calls());
    }

    private static Set<String> expectedEmailObjects(Map<String, Order> orders, Observer observer) {
        Set<String> keys = new HashSet<>();
        for (Order o : orders.values()) {
            if ("applied".equals(statusWord(observer, LocalSystem.EMAIL, o))) {
                keys.add("emails/" + URLEncoder.encode(LocalSystem.EMAIL + "#" + o.eventId(), StandardCharsets.UTF_8)
                        + ".json");
            }
        }
        return keys;
    }

    private static String statusWord(Observer observer, String consumer, Order o) {
        return "COMPLETED".equals(observer.claimStatus(consumer + "#" + o.eventId())) ? "applied" : "other";
    }
}
