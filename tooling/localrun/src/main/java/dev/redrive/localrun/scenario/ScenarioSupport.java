package dev.redrive.localrun.scenario;

import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.localrun.lambda.SandboxExit;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** What every scenario needs: the queues, the status line, waiting, sweeping, and the closing figures. */
class ScenarioSupport {

    static final Duration PHASE_TIMEOUT = Duration.ofMinutes(6);

    final LocalSystem system;
    final Observer observer;
    final Progress progress;
    final RunReport report;
    final OrderTraffic traffic;
    final CheckoutTraffic checkout;
    final String emailQueue;
    final String revenueQueue;
    final String emailDlq;
    final String revenueDlq;

    ScenarioSupport(LocalSystem system, Progress progress, RunReport report) {
        this.system = system;
        this.observer = new Observer(system);
        this.progress = progress;
        this.report = report;
        this.traffic = new OrderTraffic(system.aws().sqs(), 20261129L);
        this.checkout = new CheckoutTraffic(
                system.functionUrl(LocalSystem.CHECKOUT),
                system.aws().credentials(),
                system.aws().region().id(),
                20261204L,
                8);
        CheckoutTraffic.stock(new DynamoDbCheckoutStore(
                system.aws().dynamoDb(),
                system.environmentOf(LocalSystem.CHECKOUT).get(ORDERS_TABLE)));
        this.emailQueue = system.sourceQueueUrl(LocalSystem.EMAIL);
        this.revenueQueue = system.sourceQueueUrl(LocalSystem.REVENUE);
        this.emailDlq = system.deadLetterQueueUrl(LocalSystem.EMAIL);
        this.revenueDlq = system.deadLetterQueueUrl(LocalSystem.REVENUE);
    }

    static final String ORDERS_TABLE = "REDRIVE_CHECKOUT_ORDERS_TABLE";

    /**
     * Places {@code count} orders through {@code POST /orders} (8 customers at once): the checkout reserves, charges
     * and writes each order with its OrderPlaced event, which the relay publishes to both consumers. Every one must be
     * placed; they are remembered for the reconciliation.
     */
    List<Order> placeOrders(int count, String label) throws InterruptedException {
        List<Order> placed = checkout.place(count, label);
        traffic.record(placed, 2);
        return placed;
    }

    /** The live status line: sent, processed, in DLQ, quarantined, replayed, archived. */
    String status() {
        List<QuarantineRecord> ledger = observer.ledger();
        Map<String, Integer> states = Observer.byState(ledger);
        long archived =
                ledger.stream().filter(QuarantineRecord::archivedToStore).count();
        return String.format(
                Locale.ROOT,
                "placed %d | sent %d | processed email %d, revenue %d | in DLQ %d | quarantined %d "
                        + "| replayed %d | archived %d%s",
                checkout.answered().size(),
                traffic.deliveries(),
                observer.completed(LocalSystem.EMAIL),
                observer.completed(LocalSystem.REVENUE),
                observer.depth(emailDlq) + observer.depth(revenueDlq),
                ledger.size(),
                states.getOrDefault("REPLAYED", 0),
                archived,
                system.mailProviderRefusals() > 0 ? " | provider refusals " + system.mailProviderRefusals() : "");
    }

    void await(String what, Supplier<Boolean> done) throws InterruptedException {
        await(what, PHASE_TIMEOUT, done);
    }

    /** {@link #await(String, Supplier)} with a timeout of its own (a phase whose length grows with its volume). */
    void await(String what, Duration timeout, Supplier<Boolean> done) throws InterruptedException {
        awaitSystem(
                progress,
                what,
                timeout,
                this::status,
                done::get,
                system::failIfBroken,
                () -> RunEvidence.of(system, observer));
    }

    /**
     * A whole-system wait, every scenario's: until {@code done} holds; a function that can no longer start ({@code
     * failIfBroken} throws) ends the wait at once, as nothing it should do will happen; a wait that times out prints
     * {@code evidence} (the system's dead letters, claims, functions and log failures: {@link RunEvidence}) and carries
     * it in its {@link Progress.TimedOut}.
     */
    static void awaitSystem(
            Progress progress,
            String what,
            Duration timeout,
            Supplier<String> status,
            BooleanSupplier done,
            Runnable failIfBroken,
            Supplier<String> evidence)
            throws InterruptedException {
        progress.await(
                what,
                timeout,
                status,
                () -> {
                    failIfBroken.run();
                    return done.getAsBoolean();
                },
                evidence);
    }

    /**
     * How long {@code messages} failing on every attempt may take to reach the DLQ, from the consumer's own settings:
     * each is received {@code maxReceiveCount} times, retry {@code i} after a full-jitter delay of at most {@code
     * min(REDRIVE_BACKOFF_MAX_DELAY, REDRIVE_BACKOFF_BASE x REDRIVE_BACKOFF_MULTIPLIER^i)}, so one message needs at most
     * the sum of those caps (or, where the dependency has a circuit breaker, the receives times its capped open period
     * and a probe's lease); the sandboxes work {@code messages x maxReceiveCount} deliveries besides, at a pace of
     * {@value #DELIVERY_MILLIS} ms each per sandbox (generous for this 2-core machine). Twice that sum, plus the
     * deliveries' work, plus the {@link #PHASE_TIMEOUT}: a wait that grows with N and the receives instead of a fixed
     * one.
     */
    Duration deadLetteringBudget(String handler, int messages, int sandboxes) {
        return deadLetteringBudget(handler, system.environmentOf(handler), messages, sandboxes);
    }

    /**
     * {@link #deadLetteringBudget(String, int, int)} from {@code handler}'s environment as the template sets it. Every
     * setting it uses must be there (the CDK app writes them even at the functions' defaults): a missing one is
     * refused, never replaced by a copy of a default that could go stale.
     */
    static Duration deadLetteringBudget(String handler, Map<String, String> env, int messages, int sandboxes) {
        Duration base = Duration.parse(required(handler, env, "REDRIVE_BACKOFF_BASE"));
        Duration cap = Duration.parse(required(handler, env, "REDRIVE_BACKOFF_MAX_DELAY"));
        double multiplier = Double.parseDouble(required(handler, env, "REDRIVE_BACKOFF_MULTIPLIER"));
        int receives = maxReceiveCount(handler, env);
        long backoffMillis = 0;
        double delay = base.toMillis();
        for (int i = 0; i < receives; i++) {
            backoffMillis += (long) Math.min(cap.toMillis(), delay);
            delay *= multiplier;
        }
        if (env.containsKey("REDRIVE_BREAKERS_TABLE")) {
            // A breaker open on the dependency defers each receive by up to its capped open period and a probe's
            // lease instead: the longest of the breakers the function has.
            long deferral = 0;
            for (String key : env.keySet()) {
                if (key.startsWith("REDRIVE_BREAKERS_") && key.endsWith("_MAX_OPEN_PERIOD")) {
                    String breaker = key.substring(0, key.length() - "_MAX_OPEN_PERIOD".length());
                    Duration longest = Duration.parse(env.get(key))
                            .plus(Duration.parse(required(handler, env, breaker + "_PROBE_LEASE")));
                    deferral = Math.max(deferral, longest.toMillis());
                }
            }
            if (deferral == 0) {
                throw new IllegalStateException(handler + " has REDRIVE_BREAKERS_TABLE but the template sets no "
                        + "REDRIVE_BREAKERS_<DEPENDENCY>_MAX_OPEN_PERIOD");
            }
            backoffMillis = Math.max(backoffMillis, receives * deferral);
        }
        long workMillis = (long) messages * receives * DELIVERY_MILLIS / Math.max(1, sandboxes);
        return PHASE_TIMEOUT.plusMillis(2 * backoffMillis + workMillis);
    }

    private static String required(String handler, Map<String, String> env, String key) {
        String value = env.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(handler + " is not told " + key + " by the template");
        }
        return value;
    }

    /**
     * The {@link #PHASE_TIMEOUT} plus {@code perItem} for each of {@code items}: the wait of a phase that handles
     * that many (the sweeper resolving N dead letters, the replays of them being applied).
     */
    static Duration scaled(int items, Duration perItem) {
        return PHASE_TIMEOUT.plus(perItem.multipliedBy(Math.max(0, items)));
    }

    /** The work one delivery of a failing message costs a sandbox, for {@link #deadLetteringBudget}. */
    static final long DELIVERY_MILLIS = 250;

    /**
     * The receives before {@code handler}'s source queue moves a message to its DLQ: the redrive policy's
     * maxReceiveCount, which the CDK app also hands the consumer ({@code REDRIVE_BATCH_MAX_RECEIVE_COUNT}).
     */
    int maxReceiveCount(String handler) {
        return maxReceiveCount(handler, system.environmentOf(handler));
    }

    private static int maxReceiveCount(String handler, Map<String, String> env) {
        return Integer.parseInt(required(handler, env, "REDRIVE_BATCH_MAX_RECEIVE_COUNT"));
    }

    /** Invokes the sweeper now (as its schedule would) and returns its answer, for the story. */
    String sweep() throws InterruptedException {
        InvocationResult r = system.sweepNow();
        if (r instanceof InvocationResult.Response response) {
            return response.body();
        }
        return r.toString();
    }

    long ledgerCount(String consumer) {
        return observer.ledger().stream()
                .filter(r -> r.consumer().equals(consumer))
                .count();
    }

    /** The closing figures every scenario reports. */
    void closingFigures() {
        checkout.close();
        report.put("checkout answers by HTTP status (retries included)", checkout.statuses());
        report.put("api calls by function (through counting proxies)", system.apiCalls());
        report.put("lambda runtime", system.runtimeFigures());
        report.put(
                "sandboxes that ended by themselves",
                system.sandboxExits().stream().map(SandboxExit::toMap).toList());
        report.put("mail provider refusals during the outage", system.mailProviderRefusals());
        report.put("archive objects (S3 keys)", observer.archiveObjects());
    }
}
