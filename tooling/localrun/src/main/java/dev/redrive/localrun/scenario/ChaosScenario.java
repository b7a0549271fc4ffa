package dev.redrive.localrun.scenario;

import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.chaos.Chaos;
import dev.redrive.localrun.chaos.ChaosOptions;
import dev.redrive.localrun.chaos.FaultKind;
import dev.redrive.localrun.chaos.Redelivery;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.localrun.report.HtmlReport;
import dev.redrive.localrun.report.RunReport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The chaos scenario: T checkouts placed through {@code POST /orders} by several producers at once, their events
 * published by the outbox relay and each delivered 1..C times in all with new message ids to both consumers, while
 * faults strike from outside the functions' code at the rates the flags set — sandboxes killed at every named step of
 * the consumers and at the producer's crash points (the checkout after its reservation, after its authorization and
 * after its transaction; the relay after publishing), frozen past their lease and thawed, AWS errors, latency and lost
 * answers, the payment provider hanging, sweepers killed mid-sweep and started twice at once. Some customers give up
 * without a final answer, which leaves the reconciliation checkouts to void. The mail provider goes down for a while
 * (inside an approved maintenance window) and messages dead-letter; once it is back, the sweeper replays what the
 * window approves while a person's bulk replay (through the operator port, as {@code redrive replay} runs it) replays
 * everything that waits, the same dead letters at the same time; the person also archives the orders the revenue
 * report refuses. Then the faults stop, the system drains, and the checkers read the stores directly: the consumers'
 * ({@link ChaosChecker}) and the producer's ({@link CheckoutAudit}).
 */
final class ChaosScenario implements Scenario {

    static final String WINDOW = "chg-chaos-mail";
    /**
     * A customer who gave up comes back this long at most after the reconciliation's grace: the grace, the checkout's
     * lease and two of the drain's reconciliation runs, so some come back before the run that voids theirs, some while
     * it runs and some after.
     */
    static final Duration RETURN_SPREAD = Duration.ofSeconds(60);

    static final String REFUSED_NOTE = "revenue is reported in EUR, GBP and USD only: the order is refused, "
            + "handed to finance (FIN-7) and archived";

    @Override
    public void run(LocalSystem system, RunOptions o, Progress progress, RunReport report) throws Exception {
        Chaos chaos = system.chaos()
                .orElseThrow(() -> new IllegalStateException("the chaos scenario needs the chaos options"));
        ChaosOptions c = chaos.options();
        Observer observer = new Observer(system);
        Map<String, String> queues = queues(system);
        Operator operator = new Operator(system, observer, Actor.person("chaos-operator"));
        Supplier<String> evidence = () -> RunEvidence.of(system, observer);
        String ordersTable = system.environmentOf(LocalSystem.CHECKOUT).get(ScenarioSupport.ORDERS_TABLE);
        CheckoutTraffic.stock(new DynamoDbCheckoutStore(system.aws().dynamoDb(), ordersTable));
        CheckoutTraffic customers = new CheckoutTraffic(
                system.functionUrl(LocalSystem.CHECKOUT),
                system.aws().credentials(),
                system.aws().region().id(),
                o.seed(),
                1);
        ChaosTraffic traffic = new ChaosTraffic(
                customers,
                system.aws().sqs(),
                o.seed(),
                Math.max(1, o.orders()),
                c.producers(),
                c.backlog(),
                c.rejectedShare(),
                c.declinedShare(),
                c.abandonShare(),
                c.returnShare(),
                Chaos.RECONCILIATION_GRACE,
                RETURN_SPREAD,
                List.of(queues.get(LocalSystem.EMAIL), queues.get(LocalSystem.REVENUE)));
        Expected expected = new Expected(chaos.redelivery(), traffic, queues);
        Background background = new Background(system, chaos, operator);
        ProducerSettled producerSettled = new ProducerSettled(system, ordersTable);
        long t0 = System.nanoTime();
        try (ChaosSampler sampler = new ChaosSampler(
                system,
                observer,
                queues,
                () -> Map.of(ChaosSampler.CHECKOUTS_DONE, traffic.done(), ChaosSampler.PUBLISHED, expected.email()))) {
            Status s = new Status(traffic, chaos, expected, sampler);
            sampler.start();
            report.phase("traffic under faults: " + traffic.checkouts() + " checkouts, seed " + o.seed());
            Instant windowStart = Instant.now().minusSeconds(60);
            operator.windows()
                    .add(new MaintenanceWindow(
                            WINDOW,
                            ConfirmationEmailConsumer.DEPENDENCY,
                            windowStart,
                            windowStart.plus(Duration.ofHours(2)),
                            "change-board",
                            "mail provider maintenance during the chaos run"));
            chaos.faults().enabled(true);
            CompletableFuture<Void> sends = traffic.start();
            background.start(c);
            progress.step(traffic.checkouts() + " checkouts from " + c.producers() + " producers, each event delivered"
                    + " 1.." + c.maxCopies() + " times; faults on");
            ScenarioSupport.awaitSystem(
                    progress,
                    "a quarter of the orders to be applied",
                    c.drainTimeout(),
                    s::line,
                    () -> sends.isDone() || s.emailApplied() >= traffic.checkouts() / 4,
                    system::failIfBroken,
                    evidence);
            progress.step("the mail provider goes down for " + c.outage().toSeconds() + " s");
            system.emailProviderOutage(true);
            Thread.sleep(c.outage().toMillis());
            system.emailProviderOutage(false);
            background.providerRecovered();
            operator.windows()
                    .add(new MaintenanceWindow(
                            WINDOW,
                            ConfirmationEmailConsumer.DEPENDENCY,
                            windowStart,
                            Instant.now(),
                            "change-board",
                            "mail provider maintenance during the chaos run (closed when the provider recovered)"));
            progress.step("the mail provider is back; the window is closed, so the sweeper may replay it");
            ScenarioSupport.awaitSystem(
                    progress,
                    "the producers to finish",
                    c.drainTimeout(),
                    s::line,
                    sends::isDone,
                    system::failIfBroken,
                    evidence);
            sends.join();
            // The faults stop once most orders are applied (and, with --each-at-least-once, each planned kind and kill
            // point has struck), or after the drain timeout: either way the run heals, drains and is checked (a run
            // that stopped here would report nothing of what it injected).
            boolean mostApplied = awaitQuietly(
                    progress,
                    "most orders to be applied under faults"
                            + (c.plan().eachAtLeastOnce() ? " and each planned fault to have struck" : ""),
                    c.drainTimeout(),
                    () -> s.line() + notStruckYet(chaos),
                    () -> s.emailApplied() >= expected.email() * 97 / 100
                            && s.revenueApplied() >= expected.revenue() * 97 / 100
                            && chaos.faults().notStruckYet().isEmpty(),
                    system::failIfBroken,
                    evidence);
            if (!mostApplied) {
                report.tell("the faults were stopped after " + c.drainTimeout().toMinutes()
                        + " min with fewer than 97% of the orders applied or a planned fault not struck: " + s.line()
                        + notStruckYet(chaos));
            }

            report.phase("heal: faults off, drain");
            chaos.faults().enabled(false);
            progress.step("faults off; draining");
            boolean drained = awaitQuietly(
                    progress,
                    "the system to drain",
                    c.drainTimeout(),
                    s::line,
                    () -> s.emailApplied() >= expected.email()
                            && s.revenueApplied() >= expected.revenue()
                            && chaos.redelivery().pending() == 0
                            && queues.values().stream().allMatch(q -> observer.depth(q) == 0)
                            && settled(observer.ledger())
                            && producerSettled.now(),
                    system::failIfBroken,
                    evidence);
            background.close();
            sampler.sample();
            double seconds = (System.nanoTime() - t0) / 1e9;

            report.phase("check");
            CheckoutAudit.Verdict producer = CheckoutAudit.audit(
                    system.aws().dynamoDb(),
                    ordersTable,
                    system.paymentProvider().charges(),
                    customers.answered(),
                    Optional.of(CheckoutTraffic.stocked()));
            ChaosChecker checker = new ChaosChecker(system, observer, queues);
            ChaosChecker.Verdict verdict = checker.check(producer.orders());
            checker.report(verdict, report);
            CheckoutAudit.report(producer, report);
            report.check(
                    "the system drained within " + c.drainTimeout().toMinutes() + " min of the faults stopping",
                    drained);
            report.put("run", runFigures(system, chaos, traffic, customers, sampler, background, seconds));
            report.tell(String.format(
                    Locale.ROOT,
                    "%d checkouts, %d orders placed (%d deliveries) under %d injected faults in %.0f s: effects"
                            + " applied / unique keys %s, lost %d, stuck %d, stale-accepted %d",
                    traffic.checkouts(),
                    producer.orders().size(),
                    chaos.redelivery().delivered(),
                    chaos.faults().counts().values().stream()
                            .flatMap(m -> m.values().stream())
                            .mapToLong(Long::longValue)
                            .sum(),
                    seconds,
                    verdict.ratioText(),
                    verdict.lost(),
                    verdict.stuck(),
                    verdict.staleAccepted().size()));
            report.putJsonOnly("timeline", sampler.timeline().toMap());
            writeHtml(o, report, checker, progress);
        } finally {
            background.close();
            chaos.faults().enabled(false);
            customers.close();
        }
    }

    /** The planned faults that have not struck yet, for the status line (nothing when none is left). */
    private static String notStruckYet(Chaos chaos) {
        var left = chaos.faults().notStruckYet();
        return left.isEmpty() ? "" : " | not struck yet: " + String.join(", ", left);
    }

    /**
     * What the consumers must apply: every event the relay published to their queues (each once), less, for the
     * revenue report, the orders in the currency it refuses.
     */
    private record Expected(Redelivery redelivery, ChaosTraffic traffic, Map<String, String> queues) {
        long email() {
            return redelivery.publishedEvents(queues.get(LocalSystem.EMAIL)).size();
        }

        long revenue() {
            return redelivery.publishedEvents(queues.get(LocalSystem.REVENUE)).stream()
                    .filter(e -> !traffic.rejected(e))
                    .count();
        }
    }

    /**
     * Whether the producer has settled: no checkout attempt open (the reconciliation voided what customers gave up
     * on) and no outbox event unpublished. Two queries of sparse indexes, which moto answers in time linear in the
     * table: asked at most every few seconds. While an attempt is open, the drain runs the reconciliation itself at
     * each ask, as an operator would rather than wait up to a minute for its schedule (it voids only what is past its
     * grace, as the schedule's run does).
     */
    private static final class ProducerSettled {
        private static final long EVERY_MS = 5_000;
        private final LocalSystem system;
        private final DynamoDbCheckoutStore store;
        private long askedAt;
        private boolean last;

        ProducerSettled(LocalSystem system, String table) {
            this.system = system;
            this.store = new DynamoDbCheckoutStore(system.aws().dynamoDb(), table);
        }

        synchronized boolean now() {
            long t = System.currentTimeMillis();
            if (t - askedAt >= EVERY_MS) {
                askedAt = t;
                Instant far = Instant.now().plus(Duration.ofDays(1));
                boolean open = !store.abandoned(far, 1).isEmpty();
                if (open) {
                    reconcileNow();
                }
                last = !open && store.unpublished(far, 1).isEmpty();
            }
            return last;
        }

        private void reconcileNow() {
            try {
                system.invokeNow(LocalSystem.RECONCILIATION);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running the reconciliation", e);
            }
        }
    }

    /** Every dead letter resolved, and each archived one in the archive. */
    static boolean settled(List<QuarantineRecord> ledger) {
        return ledger.stream()
                .allMatch(r -> r.state() == QuarantineState.REPLAYED
                        || (r.state() == QuarantineState.ARCHIVED && r.archivedToStore()));
    }

    static Map<String, String> queues(LocalSystem system) {
        Map<String, String> q = new LinkedHashMap<>();
        q.put(LocalSystem.EMAIL, system.sourceQueueUrl(LocalSystem.EMAIL));
        q.put(LocalSystem.REVENUE, system.sourceQueueUrl(LocalSystem.REVENUE));
        q.put(LocalSystem.EMAIL + " DLQ", system.deadLetterQueueUrl(LocalSystem.EMAIL));
        q.put(LocalSystem.REVENUE + " DLQ", system.deadLetterQueueUrl(LocalSystem.REVENUE));
        return q;
    }

    /**
     * As {@link ScenarioSupport#awaitSystem}, but a wait that runs out of time says so, with its evidence, and returns
     * false.
     */
    static boolean awaitQuietly(
            Progress progress,
            String what,
            Duration timeout,
            Supplier<String> status,
            BooleanSupplier done,
            Runnable failIfBroken,
            Supplier<String> evidence)
            throws InterruptedException {
        try {
            ScenarioSupport.awaitSystem(progress, what, timeout, status, done, failIfBroken, evidence);
            return true;
        } catch (Progress.TimedOut timedOut) {
            progress.step(timedOut.getMessage());
            return false;
        }
    }

    private static Map<String, Object> runFigures(
            LocalSystem system,
            Chaos chaos,
            ChaosTraffic traffic,
            CheckoutTraffic customers,
            ChaosSampler sampler,
            Background background,
            double seconds) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("wall time (s)", Math.round(seconds));
        m.put("checkout answers by HTTP status (retries included)", customers.statuses());
        m.put("checkout requests, and of those unanswered", customers.requests() + ", " + customers.unanswered());
        m.put("deliveries to the consumers' queues", chaos.redelivery().figures());
        m.put("producers' waits for a queue's backlog to fall under the bound", traffic.pacedWaits());
        List<ChaosTraffic.Return> returns = traffic.returns();
        Map<String, Long> returned = new java.util.TreeMap<>();
        returns.forEach(r -> returned.merge(
                r.placed() ? "placed (201)" : "answered " + (r.status() == 0 ? "nothing" : r.status()), 1L, Long::sum));
        m.put("customers who gave up and came back after the grace: " + returns.size(), returned);
        long calls = system.apiCalls().values().stream()
                .flatMap(x -> x.values().stream())
                .mapToLong(Long::longValue)
                .sum();
        m.put("AWS calls through the sandboxes' proxies", calls);
        m.put("of which per second, on average", Math.round(calls / Math.max(1, seconds)));
        m.put("of which per second, at most (2 s samples)", Math.round(sampler.peakCallsPerSecond()));
        m.put("moto peak resident memory (MB)", sampler.motoPeakKb() / 1024);
        m.put("moto CPU time (s)", sampler.motoCpuMillis() / 1000);
        m.put(
                "local runner (ElasticMQ, proxies, pollers, producers) peak resident memory (MB)",
                sampler.runnerPeakKb() / 1024);
        m.put(
                "local runner CPU time (s)",
                ProcessHandle.current()
                        .info()
                        .totalCpuDuration()
                        .map(Duration::toSeconds)
                        .orElse(0L));
        m.put("AWS answer time by operation, mean (ms)", system.awsLatencyMillis());
        Map<String, Object> sandboxes = new LinkedHashMap<>();
        for (String f : List.of(
                LocalSystem.EMAIL,
                LocalSystem.REVENUE,
                LocalSystem.SWEEPER,
                LocalSystem.CHECKOUT,
                LocalSystem.RELAY,
                LocalSystem.RECONCILIATION)) {
            var pool = system.pool(f);
            sandboxes.put(
                    f,
                    pool.instances() + " slots, " + pool.injectedKills() + " processes killed by faults, "
                            + pool.invocations() + " invocations (" + pool.errors() + " errors, " + pool.timeouts()
                            + " timeouts); cold starts " + pool.coldStarts());
        }
        m.put("sandboxes", sandboxes);
        m.put("sweeps started by the run (besides the schedule)", background.sweeps.get());
        m.put(
                "operator bulk replays: rounds, dead letters sent, failures",
                background.operatorRounds.get() + ", " + background.operatorSent.get() + ", "
                        + background.operatorFailures.get());
        m.put(
                "effect calls seen / accepted",
                chaos.journal().effectCalls() + " / " + chaos.journal().effectsAccepted());
        m.put("mail provider refusals during the outage", system.mailProviderRefusals());
        m.put("payment provider authorizations", system.paymentProvider().calls());
        m.put("dead letters replayed (the ledger's audit trails)", sampler.replays());
        m.put(
                "sandboxes that ended by themselves (not injected)",
                system.sandboxExits().size());
        return m;
    }

    private static void writeHtml(RunOptions o, RunReport report, ChaosChecker checker, Progress progress)
            throws IOException {
        Path json = o.report().orElse(o.workDir().resolve("chaos.json"));
        Path html = HtmlReport.nextTo(json);
        Map<String, Object> page = new LinkedHashMap<>(report.toMap());
        List<Map<String, Object>> tables = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        checker.injections()
                .forEach((kind, steps) -> ((Map<?, ?>) steps).forEach((step, n) -> {
                    if (!"total".equals(step)) {
                        rows.add(List.of(kind, step, n));
                    }
                }));
        tables.add(Map.of(
                "title",
                "Injected faults by kind and step",
                "columns",
                List.of("kind", "step", "count"),
                "rows",
                rows));
        List<List<Object>> lines = new ArrayList<>();
        ((Map<?, ?>) report.toMap().get("checker")).forEach((k, v) -> {
            if (!(v instanceof List<?>)) {
                lines.add(List.of(String.valueOf(k), String.valueOf(v)));
            }
        });
        tables.add(0, Map.of("title", "Checker", "columns", List.of("line", "value"), "rows", lines));
        page.put("tables", tables);
        HtmlReport.write(html, "Redrive chaos run, seed " + o.seed(), page);
        progress.step("HTML report: " + html.toAbsolutePath());
    }

    /** The live status line. */
    private record Status(ChaosTraffic traffic, Chaos chaos, Expected expected, ChaosSampler sampler) {
        long emailApplied() {
            return chaos.journal().completedKeys(LocalSystem.EMAIL + "#");
        }

        long revenueApplied() {
            return chaos.journal().completedKeys(LocalSystem.REVENUE + "#");
        }

        String line() {
            long faults = chaos.faults().counts().values().stream()
                    .flatMap(m -> m.values().stream())
                    .mapToLong(Long::longValue)
                    .sum();
            List<QuarantineRecord> ledger = sampler.lastLedger();
            long waiting = ledger.stream().filter(r -> !r.state().resolved()).count();
            return String.format(
                    Locale.ROOT,
                    "checkouts %d/%d | delivered %d | applied email %d/%d, revenue %d/%d | ledger %d (%d waiting)"
                            + " | faults %d",
                    traffic.done(),
                    traffic.checkouts(),
                    chaos.redelivery().delivered(),
                    emailApplied(),
                    expected.email(),
                    revenueApplied(),
                    expected.revenue(),
                    ledger.size(),
                    waiting,
                    faults);
        }
    }

    /** The sweeps the run starts (some twice at once) and the person's bulk replays, in the background. */
    private static final class Background implements AutoCloseable {
        private final LocalSystem system;
        private final Chaos chaos;
        private final Operator operator;
        private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "chaos-background");
            t.setDaemon(true);
            return t;
        });
        /**
         * Up to two sweeps at once, each on one sandbox or (two sweepers at once) on two; a sweep due while two still
         * run is skipped, as their leases would make it skip anyway. The sweeper has four sandboxes here.
         */
        private final ThreadPoolExecutor sweepers = new ThreadPoolExecutor(
                2,
                2,
                0,
                TimeUnit.MILLISECONDS,
                new SynchronousQueue<>(),
                r -> {
                    Thread t = new Thread(r, "chaos-sweeps");
                    t.setDaemon(true);
                    return t;
                },
                new ThreadPoolExecutor.DiscardPolicy());

        final AtomicLong sweeps = new AtomicLong();
        final AtomicLong operatorRounds = new AtomicLong();
        final AtomicLong operatorSent = new AtomicLong();
        final AtomicLong operatorFailures = new AtomicLong();
        private volatile boolean providerRecovered;

        Background(LocalSystem system, Chaos chaos, Operator operator) {
            this.system = system;
            this.chaos = chaos;
            this.operator = operator;
        }

        void start(ChaosOptions c) {
            // A sweep starts every sweepEvery even while an earlier one still runs (its lease then makes the later
            // one skip): a sweep under load takes longer than the period.
            timers.scheduleAtFixedRate(
                    () -> sweepers.execute(this::sweep), 0, c.sweepEvery().toMillis(), TimeUnit.MILLISECONDS);
            timers.scheduleWithFixedDelay(
                    this::bulkReplay,
                    c.operatorEvery().toMillis(),
                    c.operatorEvery().toMillis(),
                    TimeUnit.MILLISECONDS);
        }

        private void sweep() {
            try {
                sweeps.incrementAndGet();
                if (chaos.faults().draw("sweep", "sweeper").strikes(FaultKind.TWO_SWEEPERS)) {
                    sweeps.incrementAndGet();
                    system.sweepTwiceAtOnce();
                } else {
                    InvocationResult ignored = system.sweepNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                // a sweep that cannot run now (its sandbox is being replaced): the next one goes on
            }
        }

        /** The mail provider is back: from now on the person's rounds replay, racing the sweeper's auto-replays. */
        void providerRecovered() {
            providerRecovered = true;
        }

        /**
         * A person at the CLI: the orders the revenue report refuses are archived with a note; once the mail provider
         * is back, every other dead letter waiting is replayed (the same checks as the sweeper's), at the same time as
         * the sweeper replays the outage's dead letters the maintenance window approved.
         */
        private void bulkReplay() {
            try {
                operatorRounds.incrementAndGet();
                List<QuarantineRecord> waiting = operator.waiting(500);
                List<String> refused = new ArrayList<>();
                List<String> replay = new ArrayList<>();
                for (QuarantineRecord r : waiting) {
                    boolean permanent = r.classification().failureClass() == FailureClass.PERMANENT
                            && "UnsupportedCurrency".equals(r.classification().errorType());
                    if (permanent) {
                        refused.add(r.id());
                    } else if (providerRecovered) {
                        replay.add(r.id());
                    }
                }
                if (!refused.isEmpty()) {
                    operator.archiveAll(refused, REFUSED_NOTE);
                }
                if (!replay.isEmpty()) {
                    Map<String, ReplayOutcome> outcomes =
                            operator.replayAll(replay, "bulk replay after the chaos incident (INC-13)");
                    operatorSent.addAndGet(outcomes.values().stream()
                            .filter(x -> x instanceof ReplayOutcome.Sent)
                            .count());
                }
            } catch (RuntimeException e) {
                operatorFailures.incrementAndGet(); // the person runs the same command again next round
            }
        }

        @Override
        public void close() {
            timers.shutdownNow();
            sweepers.shutdownNow();
            try {
                timers.awaitTermination(60, TimeUnit.SECONDS);
                sweepers.awaitTermination(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
