package dev.redrive.core.sweeper;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static dev.redrive.testing.sweeper.SweeperFixture.returned;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * An operator's replay (CLI) racing the sweeper and a consumer that dead-letters the replay at once: no interleaving
 * may end with the record REPLAYED while the message was neither applied nor in a queue.
 */
class SweepAndOperatorReplayRaceTest {

    final Actor ada = Actor.person("ada");

    static QuarantineRecord only(SweeperFixture f) {
        assertThat(f.ledger.all()).hasSize(1);
        return f.ledger.all().get(0);
    }

    static ReplayMarker sentMarker(SweeperFixture f) {
        return ReplayMarker.decode(f.sender.sent().get(0).stringAttributes().get(ReplayMarker.ATTRIBUTE))
                .orElseThrow();
    }

    @Test
    void aReturnSweptWhileTheRecordIsInIdempotencyCheckReopensItAndTheOperatorsReplayedSaveIsRejected() {
        SweeperFixture f = new SweeperFixture();
        f.dlq.add(ROUTE.deadLetterQueue(), attached("race|x", FailureClass.PERMANENT, "Rule", null, T0));
        f.sweep();
        String id = only(f).id();
        AtomicBoolean interleaved = new AtomicBoolean();
        // between the send and the operator's REPLAYED save: the consumer dead-letters it, a sweep runs
        f.interleaved.beforeSaves(id, 10, r -> {
            if (r.state() == QuarantineState.REPLAYED && interleaved.compareAndSet(false, true)) {
                f.dlq.add(ROUTE.deadLetterQueue(), returned("race|x", sentMarker(f)));
                f.sweep();
            }
        });

        ReplayOutcome outcome = f.replays.replay(id, ada, "fixed", Optional.empty(), false);

        assertThat(interleaved).isTrue();
        QuarantineRecord r = only(f);
        assertThat(f.dlq.depth(ROUTE.deadLetterQueue())).isZero();
        assertThat(r.state())
                .as("the return was taken from the DLQ: the record must be workable, not REPLAYED")
                .isEqualTo(QuarantineState.QUARANTINED);
        assertThat(r.replayCount()).isEqualTo(1);
        assertThat(r.note()).contains("replay #1 dead-lettered again");
        assertThat(outcome)
                .isInstanceOfSatisfying(
                        ReplayOutcome.Conflict.class,
                        c -> assertThat(c.reason()).contains("sent to").contains("not marked REPLAYED"));
        assertThat(f.ledger.inState(QuarantineState.QUARANTINED, Optional.empty(), 10))
                .hasSize(1);
    }

    /**
     * How long the consumer and the sweeper rest between looks: they once spun without rest, and on a machine at load
     * 38 (two cores) two spinning threads starved the operator they race past its 30 s bound (the clean-clone CI run of
     * f925c72). A sweep still runs every few tens of microseconds of the operator's replay.
     */
    private static final long LOOK_AGAIN_NANOS = 20_000;

    @Test
    void aSweeperAnOperatorAndAFailingConsumerInManyRoundsNeverLeaveAnUnappliedReplayMarkedReplayed() throws Exception {
        int rounds = 150;
        List<String> lost = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int round = 0; round < rounds; round++) {
                SweeperFixture f = new SweeperFixture();
                f.dlq.add(ROUTE.deadLetterQueue(), attached("r|x", FailureClass.PERMANENT, "Rule", null, T0));
                f.sweep();
                String id = only(f).id();
                Random rng = new Random(round);
                int pause = rng.nextInt(3) == 0 ? 0 : rng.nextInt(2_000);
                // the operator's REPLAYED save comes a random while after its send (a slow network, a GC pause)
                f.interleaved.beforeSaves(id, 100, r -> {
                    if (r.state() == QuarantineState.REPLAYED) {
                        for (int i = 0; i < pause; i++) {
                            Thread.yield();
                        }
                    }
                });
                CyclicBarrier start = new CyclicBarrier(3);
                AtomicBoolean returnedToDlq = new AtomicBoolean();
                Future<?> operator = pool.submit(() -> {
                    start.await();
                    return f.replays.replay(id, ada, "fixed", Optional.empty(), false);
                });
                Future<?> consumer = pool.submit(() -> {
                    start.await();
                    while (!operator.isDone() && f.sender.sent().isEmpty()) {
                        LockSupport.parkNanos(LOOK_AGAIN_NANOS);
                    }
                    if (!f.sender.sent().isEmpty()) { // it fails fast and is dead-lettered
                        f.dlq.add(ROUTE.deadLetterQueue(), returned("r|x", sentMarker(f)));
                        returnedToDlq.set(true);
                    }
                    return null;
                });
                Future<?> sweeper = pool.submit(() -> {
                    start.await();
                    while (!(operator.isDone() && consumer.isDone())) {
                        f.sweep();
                        LockSupport.parkNanos(LOOK_AGAIN_NANOS);
                    }
                    return null;
                });
                operator.get(30, TimeUnit.SECONDS);
                consumer.get(30, TimeUnit.SECONDS);
                sweeper.get(30, TimeUnit.SECONDS);
                f.dlq.redeliverUndeleted(); // whatever was left comes back to a last sweep
                f.sweep();

                QuarantineRecord r = only(f);
                assertThat(returnedToDlq).isTrue();
                boolean stillQueued = f.dlq.depth(ROUTE.deadLetterQueue()) > 0;
                if (r.state() == QuarantineState.REPLAYED && !stillQueued) {
                    lost.add("round " + round + ": " + r.audit());
                }
                assertThat(stillQueued)
                        .as("round %d: the return was quarantined", round)
                        .isFalse();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(lost).as("REPLAYED, never applied, in no queue").isEmpty();
    }
}
