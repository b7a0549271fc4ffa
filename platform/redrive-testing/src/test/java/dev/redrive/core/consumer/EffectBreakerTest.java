package dev.redrive.core.consumer;

import static dev.redrive.testing.Messages.message;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.breaker.Admission;
import dev.redrive.core.breaker.BreakerListener;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.CircuitBreaker;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.failure.PermanentFailure;
import dev.redrive.core.failure.TransientFailure;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.AutoReplayPolicy;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.testing.ManualClock;
import dev.redrive.testing.Records;
import dev.redrive.testing.ScriptedConsumer;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import dev.redrive.testing.claim.InMemoryClaimStore;
import dev.redrive.testing.consumer.InMemoryQueueGateway;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The circuit breaker in front of an external effect (issue 14, item 2): asked after the claim and before the call,
 * fed with the call's outcome, deferring what it refuses. Sandboxes are processors with their own
 * {@link CircuitBreaker} on one shared store; the clock is a fake one.
 */
class EffectBreakerTest {

    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final String MAIL = "mail";
    static final int MAX_RECEIVES = 10;
    /** 3 failures in a row open it for 30 s (doubling up to 2 min); a probe holds it 10 s. */
    static final BreakerPolicy POLICY =
            new BreakerPolicy(3, 1.0, 10, Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofSeconds(10));

    final ManualClock clock = new ManualClock(T0);
    final InMemoryClaimStore claims = new InMemoryClaimStore();
    final InMemoryBreakerStore shared = new InMemoryBreakerStore();
    final ScriptedConsumer consumer = new ScriptedConsumer();
    final AtomicInteger calls = new AtomicInteger();
    final List<String> events = new CopyOnWriteArrayList<>();
    final BreakerListener listener = new BreakerListener() {
        @Override
        public void transitioned(String dependency, BreakerTransition transition) {
            events.add(transition.from() + "->" + transition.to());
        }

        @Override
        public void refused(String dependency, Duration openFor) {
            events.add("refused after " + openFor.toSeconds() + " s");
        }

        @Override
        public void probed(String dependency, boolean succeeded) {
            events.add(succeeded ? "probe ok" : "probe failed");
        }

        @Override
        public void storeFailed(String dependency, RuntimeException failure) {
            events.add("store failed");
        }
    };
    volatile boolean mailDown;

    MessageProcessor sandbox(BreakerStore store) {
        CircuitBreaker breaker =
                new CircuitBreaker(MAIL, store, new CircuitBreakerRules(POLICY), Duration.ofSeconds(5), listener);
        return new MessageProcessor(
                claims,
                new LeasePolicy(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofDays(35)),
                new FullJitterBackoff(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(5)),
                new Mulberry32(1),
                clock,
                ProcessingListener.NONE,
                new EffectBreakers(Map.of(consumer.name(), breaker), MAX_RECEIVES));
    }

    MessageProcessor sandbox() {
        return sandbox(shared);
    }

    /** Orders o-* call the mail provider, which fails TRANSIENT while it is down. */
    void mailProvider() {
        for (int i = 0; i < 20; i++) {
            consumer.on("o-" + i, (k, c) -> {
                calls.incrementAndGet();
                if (mailDown) {
                    throw new TransientFailure("mail provider unreachable", MAIL);
                }
                return "sent";
            });
        }
    }

    MessageOutcome process(MessageProcessor p, String key) {
        return process(p, key, 1);
    }

    MessageOutcome process(MessageProcessor p, String key, int receiveCount) {
        return p.process(consumer, message(key, receiveCount, null), () -> Duration.ofSeconds(30));
    }

    /** Three TRANSIENT failures of the mail provider open the shared breaker at T0. */
    void openIt(MessageProcessor p) {
        mailProvider();
        mailDown = true;
        for (int i = 0; i < 3; i++) {
            assertThat(process(p, "o-" + i)).isInstanceOf(MessageOutcome.RetryLater.class);
        }
        assertThat(shared.read(MAIL).status()).isEqualTo(Status.OPEN);
    }

    @Test
    void itOpensAfterThreeTransientFailuresAndThenRefusesWithoutCallingDeferringByTheRestOfThePeriod() {
        MessageProcessor p = sandbox();
        openIt(p);
        clock.advance(Duration.ofSeconds(10));

        MessageOutcome refused = process(p, "o-3", 2);

        assertThat(calls)
                .as("the three failures only: the refused message never called")
                .hasValue(3);
        assertThat(refused).isEqualTo(new MessageOutcome.RefusedByBreaker("scripted#o-3", MAIL, 20));
        assertThat(refused.acknowledged()).isFalse();
        ClaimRecord claim = claims.find(new IdempotencyKey("scripted", "o-3"), clock.instant())
                .orElseThrow();
        assertThat(claim.status()).as("released for the next receive").isEqualTo(ClaimStatus.FAILED);
        assertThat(claim.lastFailure().failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(claim.lastFailure().classification().errorType()).isEqualTo(MessageProcessor.CIRCUIT_OPEN);
        assertThat(claim.lastFailure().classification().dependency()).isEqualTo(MAIL);
        assertThat(events).containsExactly("CLOSED->OPEN", "refused after 10 s");
    }

    /**
     * A message refused again keeps the date of its first refusal (issue 36, item 6): its failure began then, and a
     * maintenance window covering that moment approves it even if a later refusal came after the window closed.
     */
    @Test
    void aMessageRefusedAgainKeepsTheDateOfItsFirstRefusal() {
        MessageProcessor p = sandbox();
        openIt(p);
        clock.advance(Duration.ofSeconds(25));
        Instant firstRefusal = clock.instant();

        assertThat(process(p, "o-3", 1)).isInstanceOf(MessageOutcome.RefusedByBreaker.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(process(p, "o-3", 2)).isInstanceOf(MessageOutcome.RefusedByBreaker.class);

        ClaimRecord claim = claims.find(new IdempotencyKey("scripted", "o-3"), clock.instant())
                .orElseThrow();
        assertThat(claim.lastFailure().firstFailedAt()).isEqualTo(firstRefusal);
        assertThat(claim.lastFailure().lastFailedAt())
                .as("its first refusal, not the second 1 s later")
                .isEqualTo(firstRefusal);
        assertThat(claim.lastFailure().attempt()).isEqualTo(2);
    }

    /** The auto-replay policy's answer for a dead letter whose last failure is {@code key}'s claim's, at {@code now}. */
    Optional<MaintenanceWindow> approvedBy(String key, MaintenanceWindow window, Instant now) {
        FailureRecord failure = claims.find(new IdempotencyKey("scripted", key), clock.instant())
                .orElseThrow()
                .lastFailure();
        QuarantineRecord deadLetter = Records.quarantined("q-" + key, "orders", key)
                .withEvidence(new DeadLetterEvidence(
                        failure.classification(), failure.firstFailedAt(), failure.lastFailedAt(), MAX_RECEIVES));
        return AutoReplayPolicy.approvingWindow(deadLetter, List.of(window), now);
    }

    /**
     * Issue 36, item 6: the runbook's move during an outage is a maintenance window opened "now". An order placed inside
     * it whose every receive was refused by the breaker (open since before the window, with no failure of its own) is
     * approved by it once it is over.
     */
    @Test
    void aWindowOpenedMidOutageApprovesAnOrderRefusedInsideIt() {
        MessageProcessor p = sandbox();
        openIt(p);
        clock.advance(Duration.ofMinutes(10));
        MaintenanceWindow openedNow = new MaintenanceWindow(
                "chg-now", MAIL, clock.instant(), clock.instant().plus(Duration.ofMinutes(30)), "ops", "mid-outage");
        clock.advance(Duration.ofMinutes(5));
        assertThat(process(p, "o-3")).as("the probe, failing").isInstanceOf(MessageOutcome.RetryLater.class);
        clock.advance(Duration.ofSeconds(1));
        for (int receive = 1; receive <= 3; receive++) {
            assertThat(process(p, "o-4", receive)).isInstanceOf(MessageOutcome.RefusedByBreaker.class);
            clock.advance(Duration.ofSeconds(20));
        }

        FailureRecord recorded = claims.find(new IdempotencyKey("scripted", "o-4"), clock.instant())
                .orElseThrow()
                .lastFailure();
        assertThat(approvedBy("o-4", openedNow, openedNow.end()))
                .as(
                        "refused from T0+15m01s to T0+15m41s, inside the window %s..%s; recorded as failed from %s to %s",
                        openedNow.start(), openedNow.end(), recorded.firstFailedAt(), recorded.lastFailedAt())
                .contains(openedNow);
    }

    /**
     * Why refusals are not simply dated when they happen (ada0c5c, kept): a message refused inside its dependency's
     * window and refused again after the window closed, before the breaker could probe, stands for the failure inside
     * the window, and the window's auto-replay takes it (the incident scenario left one such dead letter to a person).
     */
    @Test
    void aMessageRefusedInsideAWindowAndAgainAfterItClosedBeforeTheProbeIsStillApproved() {
        MessageProcessor p = sandbox();
        MaintenanceWindow window = new MaintenanceWindow(
                "chg-1", MAIL, T0.minusSeconds(60), T0.plusSeconds(20), "ops", "mail provider maintenance");
        openIt(p);
        clock.advance(Duration.ofSeconds(10));
        assertThat(process(p, "o-3", 1)).isInstanceOf(MessageOutcome.RefusedByBreaker.class);
        clock.advance(Duration.ofSeconds(15)); // the window closed 5 s ago; the breaker probes at T0+30s
        assertThat(process(p, "o-3", 2)).isInstanceOf(MessageOutcome.RefusedByBreaker.class);

        assertThat(approvedBy("o-3", window, T0.plusSeconds(60))).contains(window);
    }

    /**
     * A message refused only after its dependency's window closed (placed after it, the breaker not probed yet) has no
     * failure inside the window: a person decides (its outage outlived the window, or the probe lets it through).
     */
    @Test
    void aMessageRefusedOnlyAfterTheWindowClosedIsNotApprovedByIt() {
        MessageProcessor p = sandbox();
        MaintenanceWindow window = new MaintenanceWindow(
                "chg-1", MAIL, T0.minusSeconds(60), T0.plusSeconds(20), "ops", "mail provider maintenance");
        openIt(p);
        clock.advance(Duration.ofSeconds(25));
        assertThat(process(p, "o-3", 1)).isInstanceOf(MessageOutcome.RefusedByBreaker.class);

        assertThat(approvedBy("o-3", window, T0.plusSeconds(60))).isEmpty();
    }

    /** The other side of the same rule: refusals of a breaker that opened again after the window closed are not its. */
    @Test
    void refusalsOfABreakerThatOpenedAgainAfterTheWindowClosedAreNotApprovedByIt() {
        MessageProcessor p = sandbox();
        MaintenanceWindow window = new MaintenanceWindow(
                "chg-1", MAIL, T0.minusSeconds(600), T0.minusSeconds(60), "ops", "mail provider maintenance");
        openIt(p);
        clock.advance(Duration.ofSeconds(5));
        assertThat(process(p, "o-3", 1)).isInstanceOf(MessageOutcome.RefusedByBreaker.class);

        assertThat(approvedBy("o-3", window, T0.plusSeconds(60))).isEmpty();
    }

    @Test
    void aRefusedMessageKeepsItsLastReceiveForAfterTheBreakerCloses() {
        MessageProcessor p = sandbox();
        openIt(p);
        clock.advance(Duration.ofSeconds(10));

        MessageOutcome early = process(p, "o-3", MAX_RECEIVES - 2);
        MessageOutcome nextIsLast = process(p, "o-4", MAX_RECEIVES - 1);
        MessageOutcome last = process(p, "o-5", MAX_RECEIVES);

        assertThat(early).isEqualTo(new MessageOutcome.RefusedByBreaker("scripted#o-3", MAIL, 20));
        assertThat(nextIsLast)
                .as("its next receive is its last: deferred past the capped open period and a probe (2 min + 10 s), "
                        + "not by the 20 s left of the period")
                .isEqualTo(new MessageOutcome.RefusedByBreaker("scripted#o-4", MAIL, 130));
        assertThat(last)
                .as("nothing left to keep")
                .isEqualTo(new MessageOutcome.RefusedByBreaker("scripted#o-5", MAIL, 20));
        assertThat(calls).hasValue(3);
    }

    @Test
    void theDeferralRuleIsBoundedBySqsTwelveHoursAndIsAtLeastOneSecond() {
        Duration betweenProbes = Duration.ofSeconds(630);
        assertThat(EffectBreakers.deferralSeconds(0, betweenProbes, 1, 10)).isEqualTo(1);
        assertThat(EffectBreakers.deferralSeconds(90_000, betweenProbes, 1, 10)).isEqualTo(43_200);
        assertThat(EffectBreakers.deferralSeconds(25, betweenProbes, 8, 10)).isEqualTo(25);
        assertThat(EffectBreakers.deferralSeconds(25, betweenProbes, 9, 10)).isEqualTo(630);
        assertThat(EffectBreakers.deferralSeconds(700, betweenProbes, 9, 10)).isEqualTo(700);
        assertThat(EffectBreakers.deferralSeconds(25, Duration.ofHours(13), 9, 10))
                .isEqualTo(43_200);
        assertThat(EffectBreakers.deferralSeconds(25, betweenProbes, 10, 10)).isEqualTo(25);
        assertThat(EffectBreakers.deferralSeconds(25, betweenProbes, 1, 2)).isEqualTo(630);
    }

    @Test
    void aDuplicateIsAcknowledgedWhileTheBreakerIsOpenNotDeferred() {
        MessageProcessor p = sandbox();
        mailProvider();
        assertThat(process(p, "o-9")).isInstanceOf(MessageOutcome.Applied.class);
        mailDown = true;
        for (int i = 0; i < 3; i++) {
            process(p, "o-" + i);
        }

        assertThat(process(p, "o-9", 2)).isEqualTo(new MessageOutcome.Duplicate("scripted#o-9"));
    }

    @Test
    void permanentFailuresAndOtherDependenciesDoNotOpenIt() {
        MessageProcessor p = sandbox();
        // each kind in a row, 5 times: 3 in a row of the breaker's own dependency would open it
        for (int i = 0; i < 5; i++) {
            consumer.failing("bad-" + i, (k, c) -> new PermanentFailure("InvalidRecipient", "no address"));
            assertThat(process(p, "bad-" + i)).isInstanceOf(MessageOutcome.DeadLettered.class);
        }
        for (int i = 0; i < 5; i++) {
            consumer.failing("pay-" + i, (k, c) -> new TransientFailure("payments down", "payments"));
            assertThat(process(p, "pay-" + i)).isInstanceOf(MessageOutcome.RetryLater.class);
        }

        assertThat(shared.read(MAIL)).isEqualTo(BreakerState.closed());
        assertThat(events).isEmpty();
    }

    @Test
    void onceThePeriodIsOverOneProbeRunsAcrossSandboxesAndItsSuccessClosesTheBreaker() {
        MessageProcessor a = sandbox();
        MessageProcessor b = sandbox();
        openIt(a);
        clock.advance(Duration.ofSeconds(31));
        mailDown = false;
        AtomicInteger concurrentProbes = new AtomicInteger();
        List<MessageOutcome> duringTheProbe = new CopyOnWriteArrayList<>();
        consumer.on("probe", (k, c) -> {
            calls.incrementAndGet();
            concurrentProbes.incrementAndGet();
            // while a's probe is in flight, another sandbox's message is refused without calling
            duringTheProbe.add(process(b, "o-7"));
            return "sent";
        });

        MessageOutcome probe = process(a, "probe");

        assertThat(probe).isInstanceOf(MessageOutcome.Applied.class);
        assertThat(duringTheProbe)
                .containsExactly(new MessageOutcome.RefusedByBreaker("scripted#o-7", MAIL, 10)); // the probe's lease
        assertThat(concurrentProbes).hasValue(1);
        assertThat(shared.read(MAIL).status()).isEqualTo(Status.CLOSED);
        assertThat(events).containsSubsequence("OPEN->HALF_OPEN", "probe ok", "HALF_OPEN->CLOSED");
        clock.advance(Duration.ofSeconds(6)); // b's cache of the half-open state has expired
        assertThat(process(b, "o-7", 2)).isInstanceOf(MessageOutcome.Applied.class);
        assertThat(calls).as("3 failures, the probe, o-7 once closed").hasValue(5);
    }

    /**
     * Issue 36, item 5: a replay that took the probe lease for its message (the sweeper's, with no consumer traffic)
     * carries the lease's token; the consumer that receives it is that probe: it calls, and its answer closes the
     * breaker, instead of being refused by its own lease until the lease lapses.
     */
    @Test
    void aReplayCarryingTheProbeLeasesTokenIsTheProbe() {
        MessageProcessor p = sandbox();
        openIt(p);
        clock.advance(Duration.ofMinutes(10));
        BreakerState open = shared.read(MAIL);
        Admission.Probe taken = (Admission.Probe) new CircuitBreakerRules(POLICY).admit(open, clock.instant());
        shared.transition(
                MAIL,
                taken.expectedToken(),
                taken.halfOpen(),
                BreakerTransition.of(Status.OPEN, taken.halfOpen(), clock.instant(), "a replay probes"));
        mailDown = false;
        IncomingMessage replay = new IncomingMessage(
                "m-replay",
                "rh-replay",
                "o-8",
                Map.of(
                        "redrive-replay",
                        "q-1:1",
                        "redrive-probe",
                        MAIL + ":" + taken.halfOpen().token()),
                1,
                "arn:aws:sqs:us-east-1:1:orders",
                null);

        MessageOutcome outcome = p.process(consumer, replay, () -> Duration.ofSeconds(30));

        assertThat(outcome).as("the replay is the probe").isInstanceOf(MessageOutcome.Applied.class);
        assertThat(shared.read(MAIL).status()).isEqualTo(Status.CLOSED);
        assertThat(events).containsSubsequence("probe ok", "HALF_OPEN->CLOSED");

        IncomingMessage stale = new IncomingMessage(
                "m-2",
                "rh-2",
                "o-9",
                Map.of("redrive-probe", MAIL + ":" + taken.halfOpen().token()),
                1,
                "q",
                null);
        assertThat(p.process(consumer, stale, () -> Duration.ofSeconds(30)))
                .as("a token that is no longer the breaker's probes nothing: the breaker is closed, it calls")
                .isInstanceOf(MessageOutcome.Applied.class);
    }

    /** A message carrying a token that is not the live probe's (a copy, an old replay) is refused like any other. */
    @Test
    void aMessageCarryingAnotherTokenIsRefusedWhileTheProbeHoldsItsLease() {
        MessageProcessor p = sandbox();
        openIt(p);
        clock.advance(Duration.ofMinutes(10));
        BreakerState open = shared.read(MAIL);
        Admission.Probe taken = (Admission.Probe) new CircuitBreakerRules(POLICY).admit(open, clock.instant());
        shared.transition(
                MAIL,
                taken.expectedToken(),
                taken.halfOpen(),
                BreakerTransition.of(Status.OPEN, taken.halfOpen(), clock.instant(), "a replay probes"));
        IncomingMessage other = new IncomingMessage(
                "m-3", "rh-3", "o-8", Map.of("redrive-probe", MAIL + ":" + open.token()), 1, "q", null);

        assertThat(p.process(consumer, other, () -> Duration.ofSeconds(30)))
                .isInstanceOf(MessageOutcome.RefusedByBreaker.class);
    }

    @Test
    void aFailedProbeOpensItAgainForTwiceThePeriod() {
        MessageProcessor p = sandbox();
        openIt(p);
        clock.advance(Duration.ofSeconds(31));

        MessageOutcome probe = process(p, "o-3");
        MessageOutcome next = process(p, "o-4");

        assertThat(probe).isInstanceOf(MessageOutcome.RetryLater.class);
        assertThat(calls).hasValue(4);
        BreakerState reopened = shared.read(MAIL);
        assertThat(reopened.status()).isEqualTo(Status.OPEN);
        assertThat(reopened.openPeriod()).isEqualTo(Duration.ofSeconds(60));
        assertThat(next).isEqualTo(new MessageOutcome.RefusedByBreaker("scripted#o-4", MAIL, 60));
        assertThat(events).containsSubsequence("OPEN->HALF_OPEN", "probe failed", "HALF_OPEN->OPEN");
    }

    @Test
    void whenTheBreakerStoreFailsTheCallGoesThroughAndTheFailureIsReported() {
        BreakerStore broken = new BreakerStore() {
            @Override
            public BreakerState read(String dependency) {
                throw new IllegalStateException("control table unreachable");
            }

            @Override
            public boolean transition(
                    String dependency, long expectedToken, BreakerState next, BreakerTransition entry) {
                throw new IllegalStateException("control table unreachable");
            }

            @Override
            public List<BreakerTransition> history(String dependency) {
                throw new IllegalStateException("control table unreachable");
            }
        };
        MessageProcessor p = sandbox(broken);
        mailProvider();
        mailDown = true;

        for (int i = 0; i < 4; i++) {
            assertThat(process(p, "o-" + i)).isInstanceOf(MessageOutcome.RetryLater.class);
        }
        mailDown = false;
        MessageOutcome after = process(p, "o-4");

        assertThat(calls).as("every message called: the breaker failed open").hasValue(5);
        assertThat(after).isInstanceOf(MessageOutcome.Applied.class);
        assertThat(events).contains("store failed").doesNotContain("CLOSED->OPEN");
    }

    @Test
    void aRefusedMessageComesBackAfterItsDeferralThroughTheBatchsVisibilityChange() {
        MessageProcessor p = sandbox();
        openIt(p);
        InMemoryQueueGateway queues = new InMemoryQueueGateway();
        IncomingMessage m = message("o-5", 2, null);

        BatchReport report = new BatchProcessor(p, queues, 2)
                .process(consumer, List.of(m), Duration.ofSeconds(20), () -> Duration.ofSeconds(30));

        assertThat(report.failedMessageIds()).containsExactly(m.messageId());
        assertThat(queues.visibilityCalls())
                .containsExactly(List.of(new QueueGateway.VisibilityChange(m.messageId(), m.receiptHandle(), 30)));
        assertThat(calls).hasValue(3);
    }
}
