package dev.redrive.localrun.scenario;

import dev.redrive.localrun.scenario.OrderTraffic.Order;
import dev.redrive.localstack.PaymentProviderSimulator.Charge;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The producer's side of "no lost order, no double charge", read from the stores once the system has drained: the
 * orders table (one scan: attempts, orders, reservations, stock, outbox events), what the payment provider charged, and
 * what each customer was answered. The one place of these rules, for every scenario that places orders:
 * <ul>
 *   <li>every 201 names an order that exists, of its amount; a final answer other than 201 (402, 409 out of stock,
 *       410, 422) names none;</li>
 *   <li>every order has exactly one standing charge, of its amount; a checkout without an order has none (voided by
 *       itself or by the reconciliation), whether its customer was answered, gave up, or was never heard of;</li>
 *   <li>no attempt is left open (started or authorized, neither placed nor ended);</li>
 *   <li>no orphan reservation: a confirmed line belongs to an order, a line of a checkout without an order is
 *       released, none is still held; and where the stock levels the run began with are known, every sku's available
 *       stock is that minus what the orders confirmed;</li>
 *   <li>the outbox is drained: every order has its event, and every event was published.</li>
 * </ul>
 */
final class CheckoutAudit {

    /** What the audit found; every list holds examples (at most 20) of one broken rule. */
    record Verdict(
            List<Order> orders,
            long checkouts,
            long placedAnswers,
            long finalRefusals,
            long unanswered,
            Map<String, Long> attemptsByStatus,
            long chargesKept,
            long chargesVoided,
            List<String> answersWithoutTheirOrder,
            List<String> wrongCharges,
            List<String> chargesStandingWithoutOrder,
            List<String> openAttempts,
            List<String> orphanReservations,
            boolean stockChecked,
            List<String> stockMismatches,
            List<String> unpublished) {

        boolean passed() {
            return answersWithoutTheirOrder.isEmpty()
                    && wrongCharges.isEmpty()
                    && chargesStandingWithoutOrder.isEmpty()
                    && openAttempts.isEmpty()
                    && orphanReservations.isEmpty()
                    && stockMismatches.isEmpty()
                    && unpublished.isEmpty();
        }
    }

    private record Line(String orderId, String sku, long quantity, String state) {}

    /** The orders table as one scan read it. */
    private record Table(
            Map<String, Map<String, AttributeValue>> attempts,
            Map<String, Map<String, AttributeValue>> orders,
            Map<String, Long> available,
            Map<String, Boolean> published,
            List<Line> lines) {

        static Table scan(DynamoDbClient dynamoDb, String table) {
            Table t = new Table(
                    new HashMap<>(), new LinkedHashMap<>(), new TreeMap<>(), new HashMap<>(), new ArrayList<>());
            for (var page : dynamoDb.scanPaginator(b -> b.tableName(table).consistentRead(true))) {
                page.items().forEach(t::add);
            }
            return t;
        }

        private void add(Map<String, AttributeValue> i) {
            String pk = i.get("pk").s();
            String sk = i.get("sk").s();
            if (pk.startsWith("checkout#")) {
                attempts.put(pk.substring("checkout#".length()), i);
            } else if (pk.startsWith("sku#")) {
                available.put(pk.substring("sku#".length()), number(i, "available"));
            } else if (sk.equals("order")) {
                orders.put(pk.substring("order#".length()), i);
            } else if (sk.startsWith("reservation#")) {
                lines.add(new Line(
                        pk.substring("order#".length()),
                        sk.substring("reservation#".length()),
                        number(i, "quantity"),
                        i.get("state").s()));
            } else if (sk.startsWith("outbox#")) {
                published.put(pk.substring("order#".length()), !i.containsKey("unpublished"));
            }
        }

        long amountOf(String orderId) {
            return number(orders.get(orderId), "amountMinor");
        }
    }

    /** The customers' answers against the table: what each kind of answer came to. */
    private record Answers(long placed, long refused, long unanswered, List<String> withoutTheirOrder) {

        static Answers check(Table t, Collection<CheckoutTraffic.Checkout> answered) {
            List<String> broken = new ArrayList<>();
            long placed = 0;
            long refused = 0;
            long unanswered = 0;
            for (CheckoutTraffic.Checkout c : answered) {
                String orderId = CheckoutTraffic.orderIdOf(c);
                boolean hasOrder = t.orders().containsKey(orderId);
                if (c.placed()) {
                    placed++;
                    if (!hasOrder || t.amountOf(orderId) != c.order().amountMinor()) {
                        example(
                                broken,
                                c.key() + " was answered 201, but its order "
                                        + (hasOrder ? "has another amount" : "does not exist"));
                    }
                } else if (c.finalAnswer()) {
                    refused++;
                    if (hasOrder) {
                        example(
                                broken,
                                c.key() + " was answered " + c.status() + " " + c.code() + ", yet its order exists");
                    }
                } else {
                    unanswered++;
                }
            }
            return new Answers(placed, refused, unanswered, broken);
        }
    }

    private CheckoutAudit() {}

    /**
     * Audits the orders table {@code table} against {@code charges} and the customers' {@code answered} checkouts;
     * {@code stocked}, when given, is every sku's stock level before the run.
     */
    static Verdict audit(
            DynamoDbClient dynamoDb,
            String table,
            Collection<Charge> charges,
            Map<String, CheckoutTraffic.Checkout> answered,
            Optional<Map<String, Long>> stocked) {
        Table t = Table.scan(dynamoDb, table);
        Answers answers = Answers.check(t, answered.values());
        List<String> wrongCharges = new ArrayList<>();
        List<String> standingWithoutOrder = new ArrayList<>();
        checkCharges(t, charges, wrongCharges, standingWithoutOrder);
        Map<String, Long> byStatus = new TreeMap<>();
        List<String> open = new ArrayList<>();
        t.attempts().forEach((key, a) -> {
            String status = a.get("status").s();
            byStatus.merge(status, 1L, Long::sum);
            if (status.equals("STARTED") || status.equals("AUTHORIZED") || status.equals("VOIDING")) {
                example(open, key + " left " + status + " (token " + number(a, "token") + ")");
            }
        });
        List<String> orphans = new ArrayList<>();
        List<String> stockMismatches = new ArrayList<>();
        checkReservations(t, stocked, orphans, stockMismatches);
        List<String> unpublished = new ArrayList<>();
        t.orders().keySet().forEach(orderId -> {
            Boolean p = t.published().get(orderId);
            if (p == null || !p) {
                example(
                        unpublished,
                        "order " + orderId + (p == null ? " has no outbox event" : "'s event unpublished"));
            }
        });
        List<Order> placed = new ArrayList<>();
        t.orders()
                .forEach((orderId, o) -> placed.add(new Order(
                        o.get("eventId").s(),
                        orderId,
                        number(o, "amountMinor"),
                        o.get("currency").s(),
                        2)));
        return new Verdict(
                placed,
                answered.size(),
                answers.placed(),
                answers.refused(),
                answers.unanswered(),
                byStatus,
                charges.size(),
                charges.stream().filter(Charge::voided).count(),
                answers.withoutTheirOrder(),
                wrongCharges,
                standingWithoutOrder,
                open,
                orphans,
                stocked.isPresent(),
                stockMismatches,
                unpublished);
    }

    /** Every order has one standing charge of its amount; a charge without an order stands no more. */
    private static void checkCharges(
            Table t, Collection<Charge> charges, List<String> wrongCharges, List<String> standingWithoutOrder) {
        Map<String, List<Charge>> chargesByOrder = new HashMap<>();
        charges.forEach(ch -> chargesByOrder
                .computeIfAbsent(ch.orderId(), k -> new ArrayList<>())
                .add(ch));
        t.orders().keySet().forEach(orderId -> {
            List<Charge> standing = chargesByOrder.getOrDefault(orderId, List.of()).stream()
                    .filter(ch -> !ch.voided())
                    .toList();
            if (standing.size() != 1 || standing.get(0).amountMinor() != t.amountOf(orderId)) {
                example(wrongCharges, "order " + orderId + ": " + standing.size() + " standing charges");
            }
        });
        chargesByOrder.forEach((orderId, list) -> {
            if (!t.orders().containsKey(orderId) && list.stream().anyMatch(ch -> !ch.voided())) {
                example(standingWithoutOrder, "a charge under " + list.get(0).key() + " stands without an order");
            }
        });
    }

    /**
     * A confirmed line belongs to an order, a line without an order is released, none is held; where the levels the
     * run began with are known, every sku's stock is that less what is confirmed or held.
     */
    private static void checkReservations(
            Table t, Optional<Map<String, Long>> stocked, List<String> orphans, List<String> stockMismatches) {
        Map<String, Long> taken = new TreeMap<>();
        for (Line l : t.lines()) {
            boolean hasOrder = t.orders().containsKey(l.orderId());
            boolean fine = switch (l.state()) {
                case "CONFIRMED" -> hasOrder;
                case "RELEASED" -> !hasOrder;
                default -> false;
            };
            if (!fine) {
                example(
                        orphans,
                        "order " + l.orderId() + " line " + l.sku() + " " + l.state()
                                + (hasOrder ? " with an order" : " without an order"));
            }
            if (l.state().equals("CONFIRMED") || l.state().equals("HELD")) {
                taken.merge(l.sku(), l.quantity(), Long::sum);
            }
        }
        stocked.ifPresent(levels -> levels.forEach((sku, level) -> {
            long expected = level - taken.getOrDefault(sku, 0L);
            long actual = t.available().getOrDefault(sku, 0L);
            if (actual != expected) {
                example(stockMismatches, sku + ": " + actual + " available, " + expected + " expected");
            }
        }));
    }

    /** The verdict's figures and checks into {@code report}. */
    static void report(Verdict v, dev.redrive.localrun.report.RunReport report) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("checkouts", v.checkouts());
        figures.put("answered 201", v.placedAnswers());
        figures.put("answered finally otherwise (402, 409 out of stock, 410, 422)", v.finalRefusals());
        figures.put("gave up without a final answer", v.unanswered());
        figures.put("orders placed", v.orders().size());
        figures.put("attempts by status", v.attemptsByStatus());
        figures.put("charges kept by the provider", v.chargesKept());
        figures.put("charges voided", v.chargesVoided());
        report.put("checkout and payments", figures);
        report.check(
                "every 201 names its order, and no other final answer has one",
                v.answersWithoutTheirOrder().isEmpty());
        report.check(
                "every order has exactly one standing charge, of its amount ("
                        + v.orders().size() + ")",
                v.wrongCharges().isEmpty());
        report.check(
                "no charge stands without an order (after the reconciliation)",
                v.chargesStandingWithoutOrder().isEmpty());
        report.check("no checkout attempt left open", v.openAttempts().isEmpty());
        report.check(
                "no orphan reservation (confirmed with an order, released without one, none held"
                        + (v.stockChecked() ? "; every sku's stock is its level less what orders confirmed" : "")
                        + ")",
                v.orphanReservations().isEmpty() && v.stockMismatches().isEmpty());
        report.check(
                "the outbox is drained: every order's event was published",
                v.unpublished().isEmpty());
        Map<String, Object> broken = new LinkedHashMap<>();
        put(broken, "answers without their order", v.answersWithoutTheirOrder());
        put(broken, "wrong charges", v.wrongCharges());
        put(broken, "charges standing without an order", v.chargesStandingWithoutOrder());
        put(broken, "open attempts", v.openAttempts());
        put(broken, "orphan reservations", v.orphanReservations());
        put(broken, "stock that does not add up", v.stockMismatches());
        put(broken, "unpublished", v.unpublished());
        if (!broken.isEmpty()) {
            report.put("checkout rules broken (examples)", broken);
        }
    }

    private static void put(Map<String, Object> into, String what, List<String> examples) {
        if (!examples.isEmpty()) {
            into.put(what, examples);
        }
    }

    private static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? 0 : Long.parseLong(v.n());
    }

    private static void example(List<String> examples, String line) {
        if (examples.size() < 20) {
            examples.add(line);
        }
    }
}
