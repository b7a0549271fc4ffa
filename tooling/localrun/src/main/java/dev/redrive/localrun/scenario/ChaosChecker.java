package dev.redrive.localrun.scenario;

import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.chaos.Chaos;
import dev.redrive.localrun.chaos.FaultKind;
import dev.redrive.localrun.chaos.FencingJournal.StaleWrite;
import dev.redrive.localrun.scenario.Observer.ClaimView;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the downstream stores directly once the system has drained, and says whether every promise held: one email
 * per order (S3 object versions of the outbox), revenue counted once per order (the counters, and every order's
 * claim), every dead letter accounted for (applied, waiting in a listed ledger state, or archived with its reason),
 * nothing stuck (no claim left IN_PROGRESS, no message left in flight), and no write by a stale token accepted (from
 * the fencing journal the sandboxes' proxies kept).
 */
final class ChaosChecker {

    /** What the checker found. */
    record Verdict(
            long ordersSent,
            long uniqueKeys,
            long effectsApplied,
            long emailsOnce,
            long emailsMissing,
            long emailsDuplicated,
            boolean revenueExact,
            long revenueNotCompleted,
            long deadLetters,
            long deadLettersUnaccounted,
            long waitingInLedger,
            long archivedWithReason,
            long lost,
            long stuck,
            List<String> examples,
            List<StaleWrite> staleAccepted,
            List<StaleWrite> lateEffectCalls) {

        double ratio() {
            return uniqueKeys == 0 ? 0 : (double) effectsApplied / uniqueKeys;
        }

        String ratioText() {
            return String.format(Locale.ROOT, "%.3f", ratio());
        }
    }

    private final LocalSystem system;
    private final Observer observer;
    private final Chaos chaos;
    private final Map<String, String> queues;

    ChaosChecker(LocalSystem system, Observer observer, Map<String, String> queues) {
        this.system = system;
        this.observer = observer;
        this.chaos = system.chaos().orElseThrow();
        this.queues = queues;
    }

    Verdict check(List<Order> orders) {
        Map<String, Integer> versions = observer.emailWritesPerKey();
        Map<String, ClaimView> claims = observer.claimsByKey();
        List<QuarantineRecord> ledger = observer.ledger();
        Map<String, List<QuarantineRecord>> ledgerByKey = new HashMap<>();
        ledger.forEach(r -> r.key()
                .ifPresent(k ->
                        ledgerByKey.computeIfAbsent(k, x -> new ArrayList<>()).add(r)));
        long[] revenue = observer.revenue();
        List<String> examples = new ArrayList<>();

        long emailsOnce = 0;
        long emailsMissing = 0;
        long emailsDuplicated = 0;
        long revenueNotCompleted = 0;
        long expectedAmount = 0;
        long expectedRevenueOrders = 0;
        long emailVersions = 0;
        long lost = 0;
        for (Order o : orders) {
            String emailKey = LocalSystem.EMAIL + "#" + o.eventId();
            int n = versions.getOrDefault(S3EmailOutbox.objectKey(emailKey), 0);
            emailVersions += n;
            if (n == 1) {
                emailsOnce++;
            } else if (n > 1) {
                emailsDuplicated++;
                example(examples, emailKey + " written " + n + " times");
            } else {
                emailsMissing++;
                if (!accounted(ledgerByKey.get(emailKey))) {
                    lost++;
                    example(examples, emailKey + " lost (no email, claim " + status(claims, emailKey) + ")");
                }
            }
            String revenueKey = LocalSystem.REVENUE + "#" + o.eventId();
            boolean rejected = ChaosTraffic.REJECTED_CURRENCY.equals(o.currency());
            if (!rejected) {
                expectedAmount += o.amountMinor();
                expectedRevenueOrders++;
            }
            boolean completed = "COMPLETED".equals(status(claims, revenueKey));
            if (!rejected && !completed) {
                revenueNotCompleted++;
                if (!accounted(ledgerByKey.get(revenueKey))) {
                    lost++;
                    example(examples, revenueKey + " lost (claim " + status(claims, revenueKey) + ")");
                }
            }
            if (rejected && !completed && !accounted(ledgerByKey.get(revenueKey))) {
                lost++;
                example(examples, revenueKey + " (refused currency) neither archived nor waiting");
            }
        }
        boolean revenueExact = revenue[0] == expectedAmount && revenue[1] == expectedRevenueOrders;
        if (!revenueExact) {
            example(
                    examples,
                    "revenue counted " + revenue[0] + " over " + revenue[1] + " orders, expected " + expectedAmount
                            + " over " + expectedRevenueOrders);
        }

        long unaccounted = 0;
        long waiting = 0;
        long archived = 0;
        for (QuarantineRecord r : ledger) {
            if (!r.state().resolved()) {
                waiting++;
            } else if (r.state() == QuarantineState.ARCHIVED) {
                if (r.archivedToStore() && !r.note().isBlank()) {
                    archived++;
                } else {
                    unaccounted++;
                    example(examples, "dead letter " + r.id() + " ARCHIVED without an archive object or reason");
                }
            } else if (!applied(r, versions, claims)) {
                unaccounted++;
                example(examples, "dead letter " + r.id() + " REPLAYED but " + r.idempotencyKey() + " never applied");
            }
        }

        long stuck = 0;
        for (Map.Entry<String, ClaimView> c : claims.entrySet()) {
            if ("IN_PROGRESS".equals(c.getValue().status())) {
                stuck++;
                example(
                        examples,
                        c.getKey() + " left IN_PROGRESS (token " + c.getValue().fencingToken() + ")");
            }
        }
        for (Map.Entry<String, String> q : queues.entrySet()) {
            int inFlight = observer.inFlight(q.getValue());
            if (inFlight > 0) {
                stuck += inFlight;
                example(examples, inFlight + " messages of " + q.getKey() + " still in flight");
            }
        }
        long uniqueKeys = orders.size() + expectedRevenueOrders;
        long effects = emailVersions + revenue[1];
        return new Verdict(
                orders.size(),
                uniqueKeys,
                effects,
                emailsOnce,
                emailsMissing,
                emailsDuplicated,
                revenueExact,
                revenueNotCompleted,
                ledger.size(),
                unaccounted,
                waiting,
                archived,
                lost,
                stuck,
                examples,
                chaos.journal().staleAccepted(),
                chaos.journal().lateEffectCalls());
    }

    /** The checker's lines, its checks, and the injections by kind and step, into the report. */
    void report(Verdict v, dev.redrive.localrun.report.RunReport report) {
        Map<String, Object> lines = new LinkedHashMap<>();
        lines.put("orders placed (the orders table)", v.ordersSent());
        lines.put(
                "effects applied / unique keys",
                v.ratioText() + " (" + v.effectsApplied() + " / " + v.uniqueKeys()
                        + ": emails as S3 object versions + orders in the revenue counters)");
        lines.put(
                "emails: written once / missing / written more than once",
                v.emailsOnce() + " / " + v.emailsMissing() + " / " + v.emailsDuplicated());
        lines.put("revenue counters equal the orders, each once", v.revenueExact());
        lines.put("lost", v.lost());
        lines.put("stuck", v.stuck());
        lines.put("stale-accepted", v.staleAccepted().size());
        lines.put(
                "effect calls that reached AWS with a stale token (accepted or refused)",
                v.lateEffectCalls().size());
        lines.put("dead letters (ledger records)", v.deadLetters());
        lines.put("dead letters archived with their reason", v.archivedWithReason());
        lines.put("dead letters waiting in a listed ledger state", v.waitingInLedger());
        lines.put("dead letters unaccounted for", v.deadLettersUnaccounted());
        if (!v.examples().isEmpty()) {
            lines.put("examples", v.examples());
        }
        if (!v.staleAccepted().isEmpty()) {
            lines.put(
                    "stale writes accepted",
                    v.staleAccepted().stream()
                            .limit(10)
                            .map(s -> s.key() + " token " + s.token() + ": " + s.why())
                            .toList());
        }
        if (!v.lateEffectCalls().isEmpty()) {
            lines.put(
                    "effect calls with a stale token (first 10)",
                    v.lateEffectCalls().stream()
                            .limit(10)
                            .map(s -> s.key() + " token " + s.token() + ": " + s.why())
                            .toList());
        }
        report.put("checker", lines);
        report.put("injections (kind: step = count)", injections());
        report.check("emails written = 1 per order (S3 object versions)", v.emailsOnce() == v.ordersSent());
        report.check(
                "revenue counted once per order (counters, and every order's claim COMPLETED)",
                v.revenueExact() && v.revenueNotCompleted() == 0);
        report.check(
                "every dead letter accounted for (applied, in a listed ledger state, or archived with its reason)",
                v.deadLettersUnaccounted() == 0);
        report.check("nothing lost", v.lost() == 0);
        report.check("nothing stuck (no claim IN_PROGRESS, no message in flight)", v.stuck() == 0);
        report.check("no write by a stale token accepted", v.staleAccepted().isEmpty());
        report.check("effects applied / unique keys = 1.000", "1.000".equals(v.ratioText()));
    }

    Map<String, Object> injections() {
        Map<String, Object> all = new LinkedHashMap<>();
        Map<FaultKind, Map<String, Long>> counts = chaos.faults().counts();
        for (FaultKind k : FaultKind.values()) {
            Map<String, Long> steps = counts.getOrDefault(k, Map.of());
            long total = steps.values().stream().mapToLong(Long::longValue).sum();
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("total", total);
            steps.forEach(entry::put);
            all.put(k.flag() + " (" + k.description() + ")", entry);
        }
        return all;
    }

    private static boolean accounted(List<QuarantineRecord> records) {
        if (records == null) {
            return false;
        }
        return records.stream()
                .anyMatch(r -> !r.state().resolved()
                        || (r.state() == QuarantineState.ARCHIVED
                                && r.archivedToStore()
                                && !r.note().isBlank()));
    }

    private static boolean applied(QuarantineRecord r, Map<String, Integer> versions, Map<String, ClaimView> claims) {
        String key = r.idempotencyKey();
        if (key == null) {
            return false;
        }
        if (key.startsWith(LocalSystem.EMAIL + "#")) {
            return versions.getOrDefault(S3EmailOutbox.objectKey(key), 0) > 0;
        }
        return "COMPLETED".equals(status(claims, key));
    }

    private static String status(Map<String, ClaimView> claims, String key) {
        ClaimView c = claims.get(key);
        return c == null ? "ABSENT" : c.status();
    }

    private static void example(List<String> examples, String line) {
        if (examples.size() < 20) {
            examples.add(line);
        }
    }
}
