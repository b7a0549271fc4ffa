package dev.redrive.localrun.scenario;

import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A duplicate storm: every order delivered 1..C times (new message ids, shuffled), from four producers at once, to
 * both consumers. Every email must be written once and every order counted once.
 */
final class DuplicateStormScenario implements Scenario {

    @Override
    public void run(LocalSystem system, RunOptions o, Progress progress, RunReport report) throws Exception {
        ScenarioSupport s = new ScenarioSupport(system, progress, report);
        int orders = Math.max(o.orders(), 1);
        report.phase("storm: " + orders + " orders, up to " + o.copies() + " deliveries each, 4 producers");
        List<Order> all = s.traffic.newOrders(orders, 0, "storm");
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
        s.closingFigures();
    }
}
