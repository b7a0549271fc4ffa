package dev.redrive.core.sweeper;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
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
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.EffectBreakers;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.PaceSlots;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.core.replay.ReplayPaceStore;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import dev.redrive.testing.replay.InMemoryReplayPaceStore;
import dev.redrive.testing.replay.RecordingReplaySender;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Replays paced per lane: a backlog reaches its dependency at the lane's rate whoever replays it (the sweeper and a
 * person at once), nothing reaches a dependency whose breaker is open, and what the pace holds stays untouched.
 */
class PacedReplayTest {

    static final String LANE = "payments";
    static final Actor PERSON = Actor.person("on-call");

    final SweeperFixture f = new SweeperFixture();
    final InMemoryReplayPaceStore paces = new InMemoryReplayPaceStore();
    final InMemoryBreakerStore breakers = new InMemoryBreakerStore();
    final ReplayPace tenPerSecond = ReplayPace.DEFAULT;

    ReplayService paced(ReplayPace pace) {
        return f.replayService().pacing(paces).pace(pace).breakers(breakers).build();
    }

    /** {@code n} dead letters of {@code dependency}'s outage, quarantined (no window approves them yet). */
    List<String> quarantined(int n, String dependency) {
        Instant during = T0.minus(Duration.ofMinutes(30));
        for (int i = 0; i < n; i++) {
            f.dlq.add(
                    ROUTE.deadLetterQueue(),
                    attached(dependency + "-" + i + "|x", FailureClass.TRANSIENT, "SlowDown", dependency, during));
        }
        while (f.dlq.depth(ROUTE.deadLetterQueue()) > 0) {
            f.sweep();
        }
        return f.ledger.all().stream()
                .filter(r -> r.state() == QuarantineState.QUARANTINED)
                .filter(r -> dependency.equals(r.classification().dependency()))
                .sorted((a, b) -> a.arrivedAt().compareTo(b.arrivedAt()))
                .map(QuarantineRecord::id)
                .toList();
    }

    /** When each sent replay becomes visible on SQS: the send time plus its delay in whole seconds (the SQS sender's). */
    List<Instant> visibleAt(List<RecordingReplaySender.Sent> sent, Instant sentAt) {
        List<Instant> at = new ArrayList<>();
        for (RecordingReplaySender.Sent s : sent) {
            long seconds = s.delay().toMillis() / 1000;
            at.add(sentAt.plusSeconds(seconds));
        }
        return at;
    }

    @Test
    void anOutagesBacklogReachesItsDependencyAtTheLanesRateNotInOneSecond() {
        List<String> ids = quarantined(185, LANE);

        Map<String, ReplayOutcome> outcomes =
                paced(tenPerSecond).replayAll(ids, PERSON, "bulk replay after INC-9", Optional.empty());

        assertThat(outcomes.values()).allMatch(o -> o instanceof ReplayOutcome.Sent);
        List<Duration> delays =
                f.sender.sent().stream().map(RecordingReplaySender.Sent::delay).toList();
        assertThat(delays).hasSize(185).isSorted();
        assertThat(delays.get(0)).isZero();
        assertThat(delays.get(184)).isEqualTo(Duration.ofMillis(18_400));
        for (int i = 1; i < delays.size(); i++) {
            assertThat(delays.get(i).minus(delays.get(i - 1))).isEqualTo(Duration.ofMillis(100));
        }
        Map<Instant, Long> perSecond = new TreeMap<>(
                visibleAt(f.sender.sent(), T0).stream().collect(Collectors.groupingBy(t -> t, Collectors.counting())));
        assertThat(perSecond.values())
                .as("replays becoming visible per second, delays in whole seconds")
                .allMatch(n -> n <= 10);
        assertThat(perSecond).as("seconds 0 to 18").hasSize(19);
        assertThat(f.ledger.all().stream()
                        .filter(r -> r.state() == QuarantineState.REPLAYED)
                        .map(r -> r.audit().get(r.audit().size() - 1).reason())
                        .filter(reason -> reason.contains("payments's replay pace")))
                .as("the audit says when a paced replay becomes visible")
                .hasSize(184);
    }

    @Test
    void theSweeperAndAPersonReplayingOneLaneAtOnceShareItsRate() {
        List<String> ids = quarantined(60, LANE);
        windowEnded();
        ReplayService sweepers = paced(tenPerSecond);
        ReplayService persons = paced(tenPerSecond);

        persons.replayAll(ids.subList(0, 30), PERSON, "bulk replay", Optional.empty());
        SweepReport report = sweep(sweepers);

        assertThat(f.sender.sent()).hasSize(60);
        List<Duration> delays = f.sender.sent().stream()
                .map(RecordingReplaySender.Sent::delay)
                .sorted()
                .toList();
        for (int i = 1; i < delays.size(); i++) {
            assertThat(delays.get(i).minus(delays.get(i - 1)))
                    .as("slots %d and %d", i - 1, i)
                    .isEqualTo(Duration.ofMillis(100));
        }
        assertThat(report.pacedCount()).isEqualTo(30);
        assertThat(report.longestPaceDelay()).isEqualTo(Duration.ofMillis(5_900));
        assertThat(report.toString()).contains("paced 30 (the last visible after 5900 ms)");
    }

    @Test
    void whileTheDependencysBreakerIsOpenNothingIsSentAndNothingIsTouched() {
        List<String> ids = quarantined(12, LANE);
        List<String> email = quarantined(3, "email");
        windowEnded();
        CircuitBreakerRules rules = new CircuitBreakerRules(BreakerPolicy.DEFAULT);
        BreakerState open = rules.open(BreakerState.closed(), T0);
        breakers.transition(LANE, 0, open, BreakerTransition.of(Status.CLOSED, open, T0, "the payments are down"));
        Map<String, Long> versions = versions();

        Map<String, ReplayOutcome> outcomes = paced(tenPerSecond)
                .replayAll(Stream.concat(ids.stream(), email.stream()).toList(), PERSON, "bulk", Optional.empty());
        SweepReport report = sweep(paced(tenPerSecond));

        assertThat(ids)
                .allSatisfy(id -> assertThat(outcomes.get(id)).isInstanceOfSatisfying(ReplayOutcome.Held.class, h -> {
                    assertThat(h.lane()).isEqualTo(LANE);
                    assertThat(h.until()).isEqualTo(open.openUntil());
                    assertThat(h.describe()).contains("the payments breaker is OPEN until " + open.openUntil());
                }));
        assertThat(email).allSatisfy(id -> assertThat(outcomes.get(id)).isInstanceOf(ReplayOutcome.Sent.class));
        assertThat(f.sender.sent()).extracting(RecordingReplaySender.Sent::body).allMatch(b -> b.startsWith("email"));
        assertThat(report.replayOutcomes()).containsEntry("Held", 12).doesNotContainKey("Sent");
        assertThat(report.heldByLane()).containsOnlyKeys(LANE);
        Map<String, Long> after = versions();
        assertThat(ids)
                .allSatisfy(id -> assertThat(after.get(id))
                        .as("held untouched: no check, no audit entry")
                        .isEqualTo(versions.get(id)));

        BreakerState probing = halfOpen(rules, open);
        breakers.transition(
                LANE, open.token(), probing, BreakerTransition.of(Status.OPEN, probing, T0, "the open period ended"));
        BreakerState closedAgain = rules.probeSucceeded(probing);
        breakers.transition(
                LANE,
                probing.token(),
                closedAgain,
                BreakerTransition.of(Status.HALF_OPEN, closedAgain, T0, "the probe succeeded"));
        SweepReport closed = sweep(paced(tenPerSecond));

        assertThat(closed.replayOutcomes()).containsEntry("Sent", 12);
    }

    /**
     * Issue 36, item 5: with no consumer traffic (the outage's messages all dead-lettered), nothing probes a breaker
     * whose open period ended long ago but a replay. The replay run takes the probe lease through the breaker's own
     * rules (OPEN past its period, HALF_OPEN with the next token), sends one replay that carries the lease's token (the
     * consumer receiving it is the probe), and holds the rest until the lease ends; a second run meanwhile probes
     * nothing more.
     */
    @Test
    void aBreakerLongPastItsOpenPeriodIsProbedByOneReplayAndTheRestWaitForItsAnswer() {
        List<String> ids = quarantined(5, LANE);
        windowEnded();
        CircuitBreakerRules rules = new CircuitBreakerRules(BreakerPolicy.DEFAULT);
        BreakerState open = rules.open(BreakerState.closed(), T0.minus(Duration.ofHours(1)));
        breakers.transition(LANE, 0, open, BreakerTransition.of(Status.CLOSED, open, T0, "the payments are down"));

        SweepReport report = sweep(paced(tenPerSecond));

        BreakerState probing = breakers.read(LANE);
        assertThat(probing.status())
                .as("the open period ended at %s; the replays were %s", open.openUntil(), report.heldByLane())
                .isEqualTo(Status.HALF_OPEN);
        assertThat(probing.token()).isEqualTo(open.token() + 1);
        assertThat(probing.probeLeaseUntil()).isEqualTo(f.clock.instant().plus(BreakerPolicy.DEFAULT.probeLease()));
        assertThat(f.sender.sent())
                .singleElement()
                .satisfies(s ->
                        assertThat(s.stringAttributes()).containsEntry("redrive-probe", LANE + ":" + probing.token()));
        assertThat(report.replayOutcomes()).containsEntry("Sent", 1).containsEntry("Held", 4);

        List<String> waiting = ids.stream()
                .filter(id -> f.ledger.find(id).orElseThrow().state() == QuarantineState.QUARANTINED)
                .toList();
        assertThat(waiting).hasSize(4);
        Map<String, ReplayOutcome> again = paced(tenPerSecond).replayAll(waiting, PERSON, "bulk", Optional.empty());
        assertThat(again.values())
                .hasSize(4)
                .allSatisfy(o -> assertThat(o)
                        .isInstanceOfSatisfying(
                                ReplayOutcome.Held.class,
                                h -> assertThat(h.until()).isEqualTo(probing.probeLeaseUntil())));
        assertThat(f.sender.sent())
                .as("no second probe while the first holds its lease")
                .hasSize(1);

        // the consumer receives the probe's replay: it is the probe, and its answer closes the breaker
        RecordingReplaySender.Sent probe = f.sender.sent().get(0);
        CircuitBreaker sandbox = new CircuitBreaker(
                LANE,
                breakers,
                new CircuitBreakerRules(BreakerPolicy.DEFAULT),
                Duration.ofSeconds(5),
                BreakerListener.NONE);
        MessageProcessor consumer = new MessageProcessor(
                f.claims,
                new LeasePolicy(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofDays(35)),
                new FullJitterBackoff(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(5)),
                new Mulberry32(1),
                f.clock,
                ProcessingListener.NONE,
                new EffectBreakers(Map.of("scripted", sandbox), 5));
        MessageOutcome applied = consumer.process(
                f.consumer,
                new IncomingMessage("m-probe", "rh", probe.body(), probe.stringAttributes(), 1, probe.queue(), null),
                () -> Duration.ofSeconds(30));

        assertThat(applied).isInstanceOf(MessageOutcome.Applied.class);
        assertThat(breakers.read(LANE).status()).isEqualTo(Status.CLOSED);
        assertThat(sweep(paced(tenPerSecond)).replayOutcomes())
                .as("the breaker closed: the rest go")
                .containsEntry("Sent", 4);
    }

    /** The same when a probe's lease lapsed without an answer (its consumer died): one replay probes again. */
    @Test
    void aProbeLeaseThatLapsedIsTakenOverByOneReplay() {
        quarantined(3, LANE);
        windowEnded();
        CircuitBreakerRules rules = new CircuitBreakerRules(BreakerPolicy.DEFAULT);
        BreakerState open = rules.open(BreakerState.closed(), T0.minus(Duration.ofHours(1)));
        breakers.transition(LANE, 0, open, BreakerTransition.of(Status.CLOSED, open, T0, "the payments are down"));
        BreakerState lapsed = halfOpen(rules, open);
        breakers.transition(LANE, 1, lapsed, BreakerTransition.of(Status.OPEN, lapsed, T0, "a consumer probes"));

        SweepReport report = sweep(paced(tenPerSecond));

        assertThat(breakers.read(LANE).token())
                .as("the lease lapsed at %s; the replays were %s", lapsed.probeLeaseUntil(), report.heldByLane())
                .isEqualTo(lapsed.token() + 1);
        assertThat(report.replayOutcomes()).containsEntry("Sent", 1).containsEntry("Held", 2);
    }

    private static BreakerState halfOpen(CircuitBreakerRules rules, BreakerState open) {
        return ((Admission.Probe) rules.admit(open, open.openUntil())).halfOpen();
    }

    @Test
    void aBreakerThatCannotBeReadLetsThePacedReplaysThrough() {
        List<String> ids = quarantined(5, LANE);
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
        ReplayService service = f.replayService()
                .pacing(paces)
                .pace(tenPerSecond)
                .breakers(broken)
                .build();

        Map<String, ReplayOutcome> outcomes = service.replayAll(ids, PERSON, "bulk", Optional.empty());

        assertThat(outcomes.values()).allMatch(o -> o instanceof ReplayOutcome.Sent);
        assertThat(f.sender.sent())
                .extracting(RecordingReplaySender.Sent::delay)
                .contains(Duration.ofMillis(400));
    }

    @Test
    void aPaceThatCannotBeBookedHoldsTheLaneAndSaysWhy() {
        List<String> ids = quarantined(4, LANE);
        ReplayPaceStore broken = new ReplayPaceStore() {
            @Override
            public PaceSlots book(String lane, int wanted, Duration spacing, Instant now, Instant latest) {
                throw new IllegalStateException("throttled");
            }

            @Override
            public void giveBack(String lane, PaceSlots booked, int used) {}
        };
        ReplayService service = f.replayService().pacing(broken).build();

        Map<String, ReplayOutcome> outcomes = service.replayAll(ids, PERSON, "bulk", Optional.empty());

        assertThat(outcomes.values())
                .allSatisfy(o -> assertThat(o.describe())
                        .isEqualTo("held: the replay pace of payments could not be booked (IllegalStateException: "
                                + "throttled); left for the next run"));
        assertThat(f.sender.sent()).isEmpty();
        assertThat(f.ledger.countByState()).containsEntry(QuarantineState.QUARANTINED, 4);
    }

    @Test
    void aLaneBookedUpToItsHorizonHoldsTheRestUntouchedForALaterRun() {
        List<String> ids = quarantined(100, LANE);
        ReplayPace onePerSecondAMinuteAhead = new ReplayPace(1, Map.of(), Duration.ofMinutes(1));

        Map<String, ReplayOutcome> outcomes =
                paced(onePerSecondAMinuteAhead).replayAll(ids, PERSON, "bulk", Optional.empty());

        assertThat(f.sender.sent()).hasSize(61);
        assertThat(ids.subList(61, 100))
                .allSatisfy(id -> assertThat(outcomes.get(id))
                        .isInstanceOfSatisfying(
                                ReplayOutcome.Held.class,
                                h -> assertThat(h.reason())
                                        .isEqualTo("payments's replays are booked until " + T0.plusSeconds(61)
                                                + " (1 a second, at most PT1M ahead)")));
        assertThat(f.ledger.countByState())
                .containsEntry(QuarantineState.REPLAYED, 61)
                .containsEntry(QuarantineState.QUARANTINED, 39);

        f.clock.advance(Duration.ofSeconds(61));
        paced(onePerSecondAMinuteAhead).replayAll(ids.subList(61, 100), PERSON, "bulk", Optional.empty());

        assertThat(f.ledger.countByState()).containsEntry(QuarantineState.REPLAYED, 100);
    }

    @Test
    void theSlotsOfDeadLettersAlreadyAppliedGoBackToTheLane() {
        List<String> ids = quarantined(10, LANE);
        for (int i = 0; i < 4; i++) {
            IdempotencyKey key = new IdempotencyKey("scripted", LANE + "-" + i);
            f.claims.claim(
                    LeasePolicy.DEFAULT.request(
                            key,
                            PayloadFingerprint.of(LANE + "-" + i + "|x"),
                            MessageOrigin.UNKNOWN,
                            T0,
                            Duration.ofSeconds(30)),
                    T0);
            f.claims.complete(key, 1, "ok", T0);
        }

        Map<String, ReplayOutcome> outcomes = paced(tenPerSecond).replayAll(ids, PERSON, "bulk", Optional.empty());

        assertThat(outcomes.values().stream().filter(o -> o instanceof ReplayOutcome.AlreadyApplied))
                .hasSize(4);
        assertThat(f.sender.sent())
                .extracting(RecordingReplaySender.Sent::delay)
                .containsExactly(
                        Duration.ZERO,
                        Duration.ofMillis(100),
                        Duration.ofMillis(200),
                        Duration.ofMillis(300),
                        Duration.ofMillis(400),
                        Duration.ofMillis(500));
        assertThat(paces.book(LANE, 1, Duration.ofMillis(100), T0, T0.plusSeconds(60))
                        .first())
                .as("the lane's next free slot right after the six sent")
                .isEqualTo(T0.plusMillis(600));
    }

    @Test
    void aFifoQueueTakesNoDelaySoOnlyTheSlotsDueWithinASecondAreSent() {
        SweeperFixture fifo = new SweeperFixture() {};
        Route route = new Route("scripted", "orders.fifo", "orders-dlq.fifo");
        for (int i = 0; i < 30; i++) {
            fifo.dlq.add(
                    route.deadLetterQueue(),
                    attached(
                            "f-" + i + "|x",
                            FailureClass.TRANSIENT,
                            "SlowDown",
                            LANE,
                            T0.minus(Duration.ofMinutes(30))));
        }
        fifo.sweeper.sweep(route, "test", Duration.ofMinutes(5), () -> true);
        List<String> ids = fifo.ledger.all().stream().map(QuarantineRecord::id).toList();
        ReplayService service =
                fifo.replayService().pacing(paces).pace(tenPerSecond).build();

        Map<String, ReplayOutcome> outcomes = service.replayAll(ids, PERSON, "bulk", Optional.empty());

        assertThat(fifo.sender.sent()).hasSize(11).allMatch(s -> s.delay().isZero());
        assertThat(outcomes.values().stream().filter(o -> o instanceof ReplayOutcome.Held))
                .hasSize(19);
    }

    /**
     * The payments outage's maintenance window, over: the sweeper's auto-replay follows its end. The clock moves one
     * second on, past it.
     */
    private void windowEnded() {
        f.windows.add(new MaintenanceWindow("w", LANE, T0.minusSeconds(3600), T0, "cab", "payments maintenance"));
        f.clock.advance(Duration.ofSeconds(1));
    }

    private SweepReport sweep(ReplayService replays) {
        return f.sweeper(f.settings, replays).sweep(ROUTE, "test", Duration.ofMinutes(5), () -> true);
    }

    private Map<String, Long> versions() {
        return f.ledger.all().stream().collect(Collectors.toMap(QuarantineRecord::id, QuarantineRecord::version));
    }
}
