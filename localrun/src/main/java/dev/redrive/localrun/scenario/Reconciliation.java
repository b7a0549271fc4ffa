package dev.redrive.localrun.scenario;

import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.OutboxEvent;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import dev.redrive.localstack.PaymentProviderSimulator;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
     * Reconciles the checkout with what the payment provider charged: every 201 has exactly one standing charge, of
     * the order's amount; a checkout answered otherwise has none left standing (a charge it made is voided, by itself
     * or by the reconciliation); a charge of a key no customer was answered for is voided. And the outbox is drained:
     * every event the checkout wrote was published.
     */
    public static void reconcileCheckouts(LocalSystem system, CheckoutTraffic checkout, RunReport report) {
        Map<String, CheckoutTraffic.Checkout> answered = checkout.answered();
        Map<String, List<PaymentProviderSimulator.Charge>> byKey = new HashMap<>();
        system.paymentProvider()
                .charges()
                .forEach(c ->
                        byKey.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(c));
        long placed = 0;
        List<String> wrongCharges = new ArrayList<>();
        List<String> standingWithoutOrder = new ArrayList<>();
        for (CheckoutTraffic.Checkout c : answered.values()) {
            List<PaymentProviderSimulator.Charge> charges = byKey.getOrDefault(c.key(), List.of());
            List<PaymentProviderSimulator.Charge> standing =
                    charges.stream().filter(ch -> !ch.voided()).toList();
            if (c.placed()) {
                placed++;
                if (standing.size() != 1
                        || standing.get(0).amountMinor() != c.order().amountMinor()) {
                    wrongCharges.add(c.key() + ": " + standing.size() + " standing charges");
                }
            } else if (!standing.isEmpty()) {
                standingWithoutOrder.add(c.key() + " (answered " + c.status() + ")");
            }
        }
        long ghosts = byKey.entrySet().stream()
                .filter(e -> !answered.containsKey(e.getKey()))
                .filter(e -> e.getValue().stream().anyMatch(ch -> !ch.voided()))
                .count();
        long voided = system.paymentProvider().charges().stream()
                .filter(PaymentProviderSimulator.Charge::voided)
                .count();
        List<OutboxEvent> unpublished = new DynamoDbCheckoutStore(
                        system.aws().dynamoDb(),
                        system.environmentOf(LocalSystem.CHECKOUT).get(ScenarioSupport.ORDERS_TABLE))
                .unpublished(Instant.now(), 1000);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("checkouts", answered.size());
        figures.put("placed (201)", placed);
        figures.put("answered otherwise", answered.size() - placed);
        figures.put(
                "charges kept by the provider",
                system.paymentProvider().charges().size());
        figures.put("charges voided", voided);
        figures.put("provider calls", system.paymentProvider().calls());
        figures.put("outbox events left unpublished", unpublished.size());
        report.put("checkout and payments", figures);
        report.check(
                "every 201 has exactly one standing charge, of its amount (" + placed + ")", wrongCharges.isEmpty());
        report.check(
                "no checkout answered otherwise has a standing charge", standingWithoutOrder.isEmpty() && ghosts == 0);
        report.check("the outbox is drained: every event the checkout wrote was published", unpublished.isEmpty());
        if (!wrongCharges.isEmpty() || !standingWithoutOrder.isEmpty()) {
            report.put("charges that do not reconcile", List.of(wrongCharges, standingWithoutOrder));
        }
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
