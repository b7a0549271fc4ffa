package dev.redrive.localrun.scenario;

import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.localrun.scenario.CheckoutTraffic.Checkout;
import dev.redrive.localrun.scenario.CheckoutTraffic.Patience;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The chaos run's customers: T checkouts through {@code POST /orders}, dealt out, shuffled, to several producers that
 * place them at once. Each is drawn from the seed: its lines, a small share in a currency the revenue report refuses,
 * a small share paid with a card the provider declines, and whether its customer gives up at the first answer that is
 * not final (a 5xx, a lost answer, a 503 or an in-progress 409) instead of retrying with its key until it has one,
 * and whether one who gave up comes back with the same key after the reconciliation's grace (at a time drawn from the
 * seed, within a spread after it), retrying then until it has a final answer: it meets the reconciliation before, while
 * or after it voids what the customer left.
 * The relay publishes each order's event, and the run's {@code Redelivery} delivers it 1..C times in all.
 *
 * <p>The producers place a checkout while every consumer queue holds fewer visible messages than the backlog bound
 * and wait while one holds more, so orders arrive as the consumers take them. The wait is pacing, not timing: nothing
 * is checked against it.
 */
final class ChaosTraffic {

    /** The currency the revenue consumer refuses (PERMANENT: it dead-letters at once). */
    static final String REJECTED_CURRENCY = "JPY";

    /**
     * One customer: the checkout it asks for, whether it gives up without a final answer, and if it does whether and
     * how long after it comes back.
     */
    private record Customer(Checkout checkout, boolean abandons, Optional<Duration> returnsAfter) {}

    /** How a returning customer ended. */
    record Return(String key, int status, boolean placed) {}

    private final CheckoutTraffic checkout;
    private final SqsClient sqs;
    private final List<List<Customer>> shares = new ArrayList<>();
    private final Set<String> rejectedEvents = new HashSet<>();
    private final int checkouts;
    private final int backlog;
    private final List<String> queueUrls;
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong paced = new AtomicLong();
    private final Map<String, Depth> depths = new ConcurrentHashMap<>();
    private final List<CompletableFuture<Void>> returning = new CopyOnWriteArrayList<>();
    private final List<Return> returns = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService comeBack = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "chaos-returning-customer");
        t.setDaemon(true);
        return t;
    });

    /** A queue's visible messages as last read; the producers share one read per queue every {@link #FRESH_MS}. */
    private record Depth(long visible, long readAtMs) {}

    private static final long FRESH_MS = 250;

    ChaosTraffic(
            CheckoutTraffic checkout,
            SqsClient sqs,
            long seed,
            int count,
            int producers,
            int backlog,
            double rejectedShare,
            double declinedShare,
            double abandonShare,
            double returnShare,
            Duration grace,
            Duration returnSpread,
            List<String> queueUrls) {
        this.checkout = checkout;
        this.sqs = sqs;
        this.backlog = backlog;
        this.queueUrls = List.copyOf(queueUrls);
        Random random = new Random(seed);
        List<Customer> all = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            boolean rejected = random.nextDouble() < rejectedShare;
            boolean declined = random.nextDouble() < declinedShare;
            boolean abandons = random.nextDouble() < abandonShare;
            boolean comesBack = random.nextDouble() < returnShare;
            Duration after = grace.plusMillis((long) (random.nextDouble() * returnSpread.toMillis()));
            Checkout c = checkout.newCheckout("chaos", declined, rejected ? REJECTED_CURRENCY : "EUR");
            if (rejected) {
                rejectedEvents.add(eventIdOf(c));
            }
            all.add(new Customer(c, abandons, comesBack ? Optional.of(after) : Optional.empty()));
        }
        Collections.shuffle(all, random);
        for (int p = 0; p < producers; p++) {
            shares.add(new ArrayList<>());
        }
        for (int i = 0; i < all.size(); i++) {
            shares.get(i % producers).add(all.get(i));
        }
        this.checkouts = all.size();
    }

    /** The OrderPlaced event id of the order a checkout places, if it does. */
    static String eventIdOf(Checkout c) {
        return CheckoutService.eventIdOf(CheckoutTraffic.orderIdOf(c));
    }

    int checkouts() {
        return checkouts;
    }

    /** Checkouts whose customer is done: answered finally, or gave up (and came back, if it does). */
    long done() {
        return done.get();
    }

    /** The events of the orders in the refused currency, which the revenue report does not count. */
    boolean rejected(String eventId) {
        return rejectedEvents.contains(eventId);
    }

    /** How many times a producer waited for a queue's backlog to fall under the bound. */
    long pacedWaits() {
        return paced.get();
    }

    /** The customers who gave up and came back, with the answer they ended with. */
    List<Return> returns() {
        return List.copyOf(returns);
    }

    /**
     * Starts every producer; the future completes when all have placed every checkout of theirs and every customer who
     * comes back has.
     */
    CompletableFuture<Void> start() {
        ExecutorService producers = Executors.newFixedThreadPool(shares.size(), r -> {
            Thread t = new Thread(r, "chaos-producer");
            t.setDaemon(true);
            return t;
        });
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (List<Customer> share : shares) {
            running.add(CompletableFuture.runAsync(() -> place(share), producers));
        }
        producers.shutdown();
        return CompletableFuture.allOf(running.toArray(CompletableFuture[]::new))
                .thenCompose(placed -> CompletableFuture.allOf(returning.toArray(CompletableFuture[]::new)))
                .whenComplete((v, e) -> comeBack.shutdown());
    }

    private void place(List<Customer> share) {
        for (Customer c : share) {
            queueUrls.forEach(this::awaitRoom);
            Checkout answered;
            try {
                answered = checkout.place(c.checkout(), c.abandons() ? Patience.NONE : Patience.PERSISTENT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the producer was interrupted", e);
            }
            if (answered.gaveUp() && c.returnsAfter().isPresent()) {
                comeBackLater(c.checkout(), c.returnsAfter().get());
            } else {
                done.incrementAndGet();
            }
        }
    }

    /** The customer comes back with its key after {@code after}, and retries until it has a final answer. */
    private void comeBackLater(Checkout c, Duration after) {
        CompletableFuture<Void> back = new CompletableFuture<>();
        returning.add(back);
        comeBack.schedule(
                () -> {
                    try {
                        Checkout answered = checkout.place(c, Patience.PERSISTENT);
                        returns.add(new Return(c.key(), answered.status(), answered.placed()));
                        done.incrementAndGet();
                        back.complete(null);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        back.completeExceptionally(e);
                    } catch (RuntimeException e) {
                        back.completeExceptionally(e);
                    }
                },
                after.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Waits while {@code url} holds at least the backlog bound of visible messages. */
    private void awaitRoom(String url) {
        boolean waited = false;
        while (visible(url) >= backlog) {
            if (!waited) {
                paced.incrementAndGet();
                waited = true;
            }
            try {
                Thread.sleep(FRESH_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the producer was interrupted", e);
            }
        }
    }

    private long visible(String url) {
        long now = System.currentTimeMillis();
        Depth d = depths.compute(
                url,
                (u, last) -> last != null && now - last.readAtMs() < FRESH_MS
                        ? last
                        : new Depth(
                                Long.parseLong(sqs.getQueueAttributes(b -> b.queueUrl(u)
                                                .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                                        .attributes()
                                        .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)),
                                now));
        return d.visible();
    }
}
