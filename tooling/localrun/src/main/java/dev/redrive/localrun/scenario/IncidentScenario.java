package dev.redrive.localrun.scenario;

import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The incident from the design: checkout traffic through {@code POST /orders}; the mail provider goes down inside an
 * approved maintenance window and N orders dead-letter in the email consumer. M of them succeed on a late retry of the
 * producer once the provider is back: the relay published them while DynamoDB refused its marks, so they stay
 * unpublished in the outbox and the outbox sweep republishes them after the outage (it is held during it, so the
 * republish lands after); K are dead letters the consumer's previous version left during the same outage, whose
 * payload predates a breaking schema change with no upcaster (not orders of this checkout: sent to the DLQ as they
 * were left). The sweeper's schedule is held from before the provider returns until each of the M is applied (their
 * own claims, by key), so no sweep sees one of them half-way. The sweeper quarantines all N, replays the N-M-K the
 * window pre-approved (applied once downstream), marks the M already applied without sending anything, and archives
 * the K to S3 with the reason; the split is checked in counts and order by order. Then every order is accounted for and
 * every effect counted.
 */
final class IncidentScenario implements Scenario {

    /**
     * The sweep phase's allowance per dead letter, on top of the phase timeout: the sweeper quarantines, checks and
     * replays or archives each (about 1.3 per second measured in a 500-dead-letter incident before its batching).
     */
    static final Duration SWEEP_PER_DEAD_LETTER = Duration.ofSeconds(1);

    static final String WINDOW = "chg-mail-001";

    @Override
    public void run(LocalSystem system, RunOptions o, Progress progress, RunReport report) throws Exception {
        ScenarioSupport s = new ScenarioSupport(system, progress, report);
        Operator operator = new Operator(system, s.observer, Actor.person("change-board"));
        int t = o.orders();
        int n = o.deadLettered();
        int m = o.alreadyApplied();
        int k = o.legacy();

        report.phase("normal traffic: " + t + " orders");
        progress.step("placing " + t + " orders through POST /orders; the relay publishes them to both consumers");
        s.placeOrders(t, "normal");
        s.await(
                "normal traffic to be processed",
                () -> s.observer.completed(LocalSystem.EMAIL) >= t && s.observer.completed(LocalSystem.REVENUE) >= t);

        report.phase("outage: the mail provider is down, " + n + " orders dead-letter");
        Instant start = Instant.now();
        operator.windows()
                .add(new MaintenanceWindow(
                        WINDOW,
                        ConfirmationEmailConsumer.DEPENDENCY,
                        start.minusSeconds(60),
                        start.plus(Duration.ofMinutes(30)),
                        "change-board",
                        "planned mail provider maintenance"));
        progress.step("maintenance window " + WINDOW + " approved for " + ConfirmationEmailConsumer.DEPENDENCY
                + "; the mail provider goes down");
        long refusalsBefore = system.mailProviderRefusals(); // every call the downed provider gets counts
        system.emailProviderOutage(true);
        system.holdSchedule(LocalSystem.OUTBOX_SWEEPER, true);
        // The sweeper's schedule is held from here until the M orders are applied (see recover): with it running, an
        // approved replay may probe the mail provider's breaker once its open period is over (issue 36, item 5), and a
        // probe that carried one of the M orders would turn an "already applied" into a "replayed" by timing alone. The
        // split is decided by the one sweep after the recovery.
        system.holdSchedule(LocalSystem.SWEEPER, true);
        List<Order> hit = new ArrayList<>(s.placeOrders(n - k - m, "outage"));
        long placedSoFar = t + n - k - m;
        s.await("the relay to publish every order placed so far", () -> system.relayed() >= placedSoFar);
        progress.step("DynamoDB refuses the relay's marks for the next " + m + " orders: published, left unmarked");
        system.producerCrashes().refuseRelayMarks(true);
        List<Order> unmarked = s.placeOrders(m, "unmarked");
        s.await("the relay to publish the " + m + " orders it cannot mark", () -> system.relayed() >= placedSoFar + m);
        system.producerCrashes().refuseRelayMarks(false);
        hit.addAll(unmarked);
        List<String> legacy = leftByThePreviousVersion(s, k, start);
        Duration deadLettering = s.deadLetteringBudget(LocalSystem.EMAIL, n - k, o.maxInstances());
        s.await(
                "the outage's orders to be dead-lettered by the email consumer",
                deadLettering,
                () -> s.observer.depth(s.emailQueue) == 0
                        && s.observer.depth(s.emailDlq) + s.ledgerCount(LocalSystem.EMAIL) >= n
                        && s.observer.completed(LocalSystem.REVENUE) >= t + n - k);
        long providerCalls = system.mailProviderRefusals() - refusalsBefore;
        Map<String, Object> outage = new LinkedHashMap<>();
        outage.put("dead-lettered by the outage", n - k);
        outage.put("receives before the DLQ", s.maxReceiveCount(LocalSystem.EMAIL));
        outage.put("calls to the downed provider", providerCalls);
        outage.put(
                "calls to the downed provider per dead-lettered message",
                n - k == 0 ? 0 : Math.round(100.0 * providerCalls / (n - k)) / 100.0);
        outage.put("wait allowed (derived from N, the receives and the backoff)", deadLettering.toString());
        report.put("outage", outage);
        report.tell((n - k) + " orders retried with backoff while the provider refused them, then the redrive policy "
                + "moved them to the email DLQ; " + k + " dead letters the consumer's previous version left in the "
                + "same outage carry a payload from before a breaking schema change; the revenue consumer applied "
                + "the " + (n - k) + " orders meanwhile");

        recover(system, s, operator, unmarked);

        report.phase("sweep");
        progress.step("the sweeper runs (its schedule also fires on its own)");
        double rate = system.replayPace().perSecond(ConfirmationEmailConsumer.DEPENDENCY);
        ProviderCallTimeline replaysLanding = new ProviderCallTimeline(system::mailProviderCalls).start();
        Map<String, String> last = new LinkedHashMap<>();
        s.await(
                "the sweeper to resolve the outage's dead letters",
                ScenarioSupport.scaled(n, SWEEP_PER_DEAD_LETTER),
                () -> {
                    try {
                        last.put("sweep", s.sweep());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return true;
                    }
                    List<QuarantineRecord> email = s.observer.ledger().stream()
                            .filter(r -> r.consumer().equals(LocalSystem.EMAIL))
                            .toList();
                    return s.observer.depth(s.emailDlq) == 0
                            && email.size() >= n
                            && email.stream()
                                    .allMatch(r -> r.state().resolved()
                                            && (r.state() != QuarantineState.ARCHIVED || r.archivedToStore()));
                });
        s.await(
                "the replays to be applied downstream",
                ScenarioSupport.scaled(n, Duration.ofMillis(200)).plus(paced(n, rate)),
                () -> s.observer.completed(LocalSystem.EMAIL) >= t + n - k);
        replaysLanding.close();
        Map<String, Object> landing = new LinkedHashMap<>();
        landing.put("replay pace of " + ConfirmationEmailConsumer.DEPENDENCY + " (a second)", rate);
        landing.putAll(replaysLanding.figures());
        report.put("replays reaching the mail provider", landing);
        // SQS makes each replay visible at its slot; the consumer's batches may bunch a second or two of them, so
        // the check is over 10 s with half of that again to spare. Unpaced, the backlog lands within a few seconds.
        long allowed = Math.round(15 * rate);
        long peak = replaysLanding.peak(10);
        report.check(
                "replays reached the mail provider at the replay pace: at most " + allowed + " calls in any 10 s at "
                        + rate + " a second (" + peak + ")",
                peak <= allowed);

        report.phase("reconcile");
        List<QuarantineRecord> email = s.observer.ledger().stream()
                .filter(r -> r.consumer().equals(LocalSystem.EMAIL))
                .toList();
        long replayed = email.stream()
                .filter(r -> r.state() == QuarantineState.REPLAYED && r.note().startsWith("sent"))
                .count();
        long alreadyApplied =
                email.stream().filter(r -> r.note().contains("already applied")).count();
        List<QuarantineRecord> archived = email.stream()
                .filter(r -> r.state() == QuarantineState.ARCHIVED)
                .toList();
        Map<String, Object> sweep = new LinkedHashMap<>();
        sweep.put("quarantined", email.size());
        sweep.put("replayed (sent, window " + WINDOW + ")", replayed);
        sweep.put("already applied (nothing sent)", alreadyApplied);
        sweep.put(
                "archived to S3",
                archived.stream().filter(QuarantineRecord::archivedToStore).count());
        sweep.put("left in the DLQ", s.observer.depth(s.emailDlq));
        sweep.put(
                "archive notes",
                archived.stream().map(QuarantineRecord::note).distinct().toList());
        report.put("sweep of the email DLQ", sweep);
        report.tell("the sweeper replayed " + replayed + ", marked " + alreadyApplied + " already applied and "
                + "archived " + archived.size() + " to S3: " + replayed + " + " + alreadyApplied + " + "
                + archived.size() + " = " + (replayed + alreadyApplied + archived.size()) + " of " + n);
        report.check("replayed = N - M - K (" + (n - m - k) + ")", replayed == n - m - k);
        report.check("already applied = M (" + m + "), nothing sent for them", alreadyApplied == m);
        report.check(
                "archived to S3 with a note = K (" + k + ")",
                archived.size() == k
                        && archived.stream()
                                .allMatch(r -> r.archivedToStore() && r.note().contains("incompatible"))
                        && new HashSet<>(legacy)
                                .equals(new HashSet<>(archived.stream()
                                        .map(QuarantineRecord::idempotencyKey)
                                        .toList())));
        report.check(
                "by key: the M orders the outbox sweep republished are the ones marked already applied, and every "
                        + "other order of the outage was replayed",
                splitByKey(email, hit, unmarked));
        report.check("the email DLQ is empty", s.observer.depth(s.emailDlq) == 0);
        Reconciliation.reconcile(
                system,
                s.observer,
                s.traffic.sent(),
                new HashSet<>(s.traffic.sent().keySet()),
                report);
        Reconciliation.reconcileCheckouts(system, s.checkout, report);
        if (o.practice() > 0) {
            leaveForPractice(s, o.practice(), operator.windows().find(WINDOW).orElseThrow());
        }
        s.closingFigures();
        report.put("last sweep invocation", last.getOrDefault("sweep", ""));
    }

    /** The prefix of the event ids of the dead letters {@code --practice} leaves. */
    static final String PRACTICE = "evt-practice-";

    /**
     * {@code --practice P}: after the incident, P more dead letters for a person to work on with the CLI or the console,
     * left by the consumers in their DLQs as {@link #leftByThePreviousVersion} leaves its K, and quarantined by the
     * sweeper, which leaves them for a person (no maintenance window approves them: half failed three hours ago, before
     * the window, half since it closed). They spread over both consumers and their dependencies, the four failure
     * classes and six error types ({@link PracticeDeadLetter#ofIndex}), so groups, bulk actions and windows have
     * something to work on. The phase ends when the ledger holds all P, each QUARANTINED, and both DLQs are empty.
     */
    private static void leaveForPractice(ScenarioSupport s, int p, MaintenanceWindow closed)
            throws InterruptedException {
        s.report.phase("practice: " + p + " dead letters left in quarantine for a person");
        s.progress.step("leaving " + p + " dead letters of several failure classes, error types, dependencies and two "
                + "time spans in the DLQs; the sweeper quarantines them and waits for a person");
        Instant now = Instant.now();
        Instant earlier = now.minus(Duration.ofHours(3));
        Instant since = closed.end().plusSeconds(1);
        Map<String, Integer> byGroup = new LinkedHashMap<>();
        for (int i = 0; i < p; i++) {
            PracticeDeadLetter d = PracticeDeadLetter.ofIndex(i);
            boolean early = i % 2 == 0;
            Instant failedAt = early
                    ? earlier.plusMillis(Duration.ofHours(1).toMillis() * i / p)
                    : since.plusMillis(Math.max(0, now.toEpochMilli() - since.toEpochMilli()) * i / p);
            String eventId = PRACTICE + (i + 1);
            String consumer = d.revenue() ? LocalSystem.REVENUE : LocalSystem.EMAIL;
            deadLetter(
                    s,
                    d.revenue() ? s.revenueDlq : s.emailDlq,
                    d.body(eventId, i),
                    new DeadLetterMetadata(
                            consumer,
                            consumer + "#" + eventId,
                            d.revenue() ? s.revenueQueue : s.emailQueue,
                            UUID.randomUUID().toString(),
                            d.failureClass().name(),
                            d.errorType(),
                            d.reason(),
                            d.dependency(),
                            4,
                            failedAt.minusSeconds(90).toEpochMilli(),
                            failedAt.toEpochMilli()));
            byGroup.merge(consumer + " " + d.failureClass() + " " + d.errorType(), 1, Integer::sum);
        }
        List<QuarantineRecord> left = new ArrayList<>();
        s.await(
                "the sweeper to quarantine the " + p + " dead letters left for practice",
                ScenarioSupport.scaled(p, Duration.ofMillis(200)),
                () -> {
                    try {
                        s.sweep();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return true;
                    }
                    left.clear();
                    s.observer.ledger().stream()
                            .filter(r -> r.idempotencyKey() != null
                                    && r.idempotencyKey().contains("#" + PRACTICE))
                            .forEach(left::add);
                    return left.size() >= p && s.observer.depth(s.emailDlq) == 0 && s.observer.depth(s.revenueDlq) == 0;
                });
        Map<String, Object> practice = new LinkedHashMap<>();
        practice.put("left in quarantine", left.size());
        practice.put("by consumer, failure class and error type", byGroup);
        practice.put("time spans", "half from " + earlier + " for an hour, half since " + since);
        s.report.put("practice", practice);
        s.report.check(
                "the " + p + " dead letters left for practice are quarantined, none replayed or archived",
                left.size() == p && left.stream().allMatch(r -> r.state() == QuarantineState.QUARANTINED));
    }

    /**
     * The recovery: the provider is back, the window closes, and the outbox sweep republishes the {@code unmarked}
     * orders, which the email consumer applies. The phase ends when each of them is applied, by its own claim.
     */
    private static void recover(LocalSystem system, ScenarioSupport s, Operator operator, List<Order> unmarked)
            throws InterruptedException {
        Progress progress = s.progress;
        RunReport report = s.report;
        int m = unmarked.size();
        report.phase("recovery: provider back, " + m + " orders succeed on the outbox sweep's republish");
        // No sweep may check the outage's dead letters before the M orders' own claims are completed: a sweep that did
        // would find some of them not applied yet (a sandbox whose breaker reading is a second stale refuses a
        // republished order and defers it for tens of seconds) and replay them, so the split would hold only by timing.
        // The sweeper's schedule stays held (since the outage began), with no sweep half-way through, until each of the
        // M is applied, by key; other completions (the sweeper's replays, say) do not count.
        progress.step("the sweeper's schedule stays held until the " + m + " orders the producer retries are applied");
        system.holdSchedule(LocalSystem.SWEEPER, true);
        system.emailProviderOutage(false);
        MaintenanceWindow opened = operator.windows().find(WINDOW).orElseThrow();
        operator.windows()
                .add(new MaintenanceWindow(
                        WINDOW,
                        opened.dependency(),
                        opened.start(),
                        Instant.now(),
                        opened.approvedBy(),
                        opened.reason() + " (closed when the provider recovered)"));
        system.holdSchedule(LocalSystem.OUTBOX_SWEEPER, false);
        Map<String, String> republished = new LinkedHashMap<>();
        long[] lastSweep = {0};
        Set<String> lateKeys = emailKeys(unmarked);
        s.await(
                "the outbox sweep to republish the " + m
                        + " unmarked orders and the email consumer to apply each of them",
                () -> {
                    boolean applied = allCompleted(s.observer, lateKeys);
                    try {
                        if (!applied && System.nanoTime() - lastSweep[0] > 5e9) {
                            lastSweep[0] = System.nanoTime();
                            republished.put(
                                    "outbox sweep", String.valueOf(system.invokeNow(LocalSystem.OUTBOX_SWEEPER)));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return true;
                    }
                    return applied;
                });
        system.holdSchedule(LocalSystem.SWEEPER, false);
        report.put("last outbox sweep", republished.getOrDefault("outbox sweep", ""));
    }

    /**
     * Whether the ledger's split is the design's order by order, not only in its counts: the records marked already
     * applied are exactly the {@code unmarked} orders' (the outbox sweep's republish applied them before the sweep), and
     * the records replayed are exactly the other orders of the outage ({@code hit} holds both).
     */
    static boolean splitByKey(List<QuarantineRecord> email, List<Order> hit, List<Order> unmarked) {
        Set<String> late = emailKeys(unmarked);
        Set<String> others = emailKeys(hit);
        others.removeAll(late);
        Set<String> alreadyApplied = new HashSet<>();
        Set<String> sent = new HashSet<>();
        for (QuarantineRecord r : email) {
            if (r.note().contains("already applied")) {
                alreadyApplied.add(r.idempotencyKey());
            } else if (r.state() == QuarantineState.REPLAYED && r.note().startsWith("sent")) {
                sent.add(r.idempotencyKey());
            }
        }
        return alreadyApplied.equals(late) && sent.equals(others);
    }

    /** Whether the claim of every key in {@code keys} is COMPLETED (read one by one, consistently, up to the first not). */
    static boolean allCompleted(Observer observer, Set<String> keys) {
        return keys.stream().allMatch(k -> "COMPLETED".equals(observer.claimStatus(k)));
    }

    private static Set<String> emailKeys(List<Order> orders) {
        Set<String> keys = new HashSet<>();
        orders.forEach(o -> keys.add(LocalSystem.EMAIL + "#" + o.eventId()));
        return keys;
    }

    /** How long {@code n} replays take to become visible at {@code perSecond}: their pace's share of a wait. */
    static Duration paced(int n, double perSecond) {
        return Duration.ofMillis(Math.round(1000.0 * n / perSecond));
    }

    /**
     * The K dead letters the consumer's previous version left in the email DLQ during the same outage: a payload of
     * the old schema (version 0, which no upcaster reads) with the failure metadata that version attached.
     */
    private static List<String> leftByThePreviousVersion(ScenarioSupport s, int k, Instant outageStart) {
        Instant failedAt = outageStart.plusSeconds(1);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            String eventId = "evt-premigration-" + (i + 1);
            String key = LocalSystem.EMAIL + "#" + eventId;
            keys.add(key);
            String body = "{\"eventType\":\"OrderPlaced\",\"version\":0,\"eventId\":\"" + eventId + "\",\"order\":"
                    + "\"o-pre-" + (i + 1) + "\",\"email\":\"pre" + (i + 1)
                    + "@example.com\",\"amount\":\"12.50 EUR\"}";
            DeadLetterMetadata meta = new DeadLetterMetadata(
                    LocalSystem.EMAIL,
                    key,
                    s.emailQueue,
                    UUID.randomUUID().toString(),
                    FailureClass.TRANSIENT.name(),
                    "SlowDown",
                    "SlowDown (HTTP 503) from email-provider",
                    ConfirmationEmailConsumer.DEPENDENCY,
                    4,
                    failedAt.toEpochMilli(),
                    failedAt.toEpochMilli());
            deadLetter(s, s.emailDlq, body, meta);
        }
        return keys;
    }

    /** Sends {@code body} to {@code dlq} with the failure metadata a consumer attaches when it dead-letters. */
    private static void deadLetter(ScenarioSupport s, String dlq, String body, DeadLetterMetadata meta) {
        s.system
                .aws()
                .sqs()
                .sendMessage(b -> b.queueUrl(dlq)
                        .messageBody(body)
                        .messageAttributes(Map.of(
                                DeadLetterMetadata.ATTRIBUTE,
                                MessageAttributeValue.builder()
                                        .dataType("String")
                                        .stringValue(meta.toJson())
                                        .build())));
    }
}
