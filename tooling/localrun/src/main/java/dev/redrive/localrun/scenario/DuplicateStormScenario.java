package dev.redrive.localrun.scenario;

import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A duplicate storm: every order is placed through {@code POST /orders} 1..C times at once by 4 customers (the same
 * key and body: a client retrying while its first request still runs), and its OrderPlaced event, published once by
 * the relay, is delivered 1..C times more (new message ids, shuffled), as SQS may deliver it again, by 4 producers at
 * once. Every checkout must be charged once, every email written once and every order counted once.
 */
final class DuplicateStormScenario implements Scenario {

    @Override
    public void run(LocalSystem system, RunOptions o, Progress progress, RunReport report) throws Exception {
        ScenarioSupport s = new ScenarioSupport(system, progress, report);
        int orders = Math.max(o.orders(), 1);
        report.phase("storm: " + orders + " orders, each placed up to " + o.copies() + " times at once and delivered "
                + "up to " + o.copies() + " times more, 4 customers and 4 producers");
        Random random = new Random(o.seed());
        List<CheckoutTraffic.Checkout> wanted = new ArrayList<>();
        List<CheckoutTraffic.Checkout> requests = new ArrayList<>();
        for (int i = 0; i < orders; i++) {
            CheckoutTraffic.Checkout c = s.checkout.newCheckout("storm", false);
            wanted.add(c);
            int copies = 1 + random.nextInt(Math.max(1, o.copies()));
            for (int k = 0; k < copies; k++) {
                requests.add(c);
            }
        }
        Collections.shuffle(requests, random);
        List<CheckoutTraffic.Checkout> answers = s.checkout.submit(requests);
        Map<String, Set<String>> ordersPerKey = new HashMap<>();
        answers.forEach(a -> ordersPerKey
                .computeIfAbsent(a.key(), k -> new HashSet<>())
                .add(a.placed() ? a.order().eventId() : "answered " + a.status()));
        report.check(
                "every request of a checkout got the same order (" + requests.size() + " requests, " + orders
                        + " keys)",
                ordersPerKey.size() == orders
                        && ordersPerKey.values().stream()
                                .allMatch(v ->
                                        v.size() == 1 && !v.iterator().next().startsWith("answered")));
        List<Order> all = wanted.stream()
                .map(c -> s.checkout.answered().get(c.key()).order())
                .toList();
        s.traffic.record(all, 2);
        ExecutorService producers = Executors.newFixedThreadPool(4);
        List<Future<?>> sends = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            List<Order> share = new ArrayList<>();
            for (int i = p; i < all.size(); i += 4) {
                share.add(all.get(i));
            }
            sends.add(producers.submit(() -> s.traffic.send(share, List.of(s.emailQueue, s.revenueQueue), o.copies())));
        }
        for (Future<?> f : sends) {
            f.get();
        }
        producers.shutdown();
        progress.step(s.traffic.deliveries() + " deliveries of " + orders + " orders sent");
        s.await(
                "every delivery to be processed",
                () -> s.observer.depth(s.emailQueue) == 0
                        && s.observer.depth(s.revenueQueue) == 0
                        && s.observer.completed(LocalSystem.EMAIL) >= orders
                        && s.observer.completed(LocalSystem.REVENUE) >= orders);
        report.tell(s.traffic.deliveries() + " deliveries (" + (s.traffic.deliveries() / 2 - orders)
                + " duplicates per consumer) of " + orders + " orders to each of the two consumers");

        report.phase("reconcile");
        Reconciliation.reconcile(
                system,
                s.observer,
                s.traffic.sent(),
                new HashSet<>(s.traffic.sent().keySet()),
                report);
        Reconciliation.reconcileCheckouts(system, s.checkout, report);
        s.closingFigures();
    }
}
