package dev.redrive.core.sweeper;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Two actors resuming the same replay from IDEMPOTENCY_CHECK at once (an operator and the sweeper, or two operators,
 * after a failed send): exactly one of them sends. Resuming is a conditional save of its own, before the send, so the
 * second finds the record changed and backs off; a record another actor saved for sending moments ago is left to it
 * (Deferred); and the resume's audit entry restarts the record's retention, so the sweep does not archive it while its
 * replay is in flight.
 */
class ConcurrentResumedReplayTest {

    final SweeperFixture f = new SweeperFixture();
    final Actor ada = Actor.person("ada");
    final Actor bob = Actor.person("bob");

    QuarantineRecord only() {
        assertThat(f.ledger.all()).hasSize(1);
        return f.ledger.all().get(0);
    }

    /** A dead letter whose first replay's send failed: it waits in IDEMPOTENCY_CHECK for the next attempt. */
    String waitingInIdempotencyCheck() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached("order-1", FailureClass.TRANSIENT, "Timeout", null, T0));
        f.sweep();
        f.sender.failNextSends(1);
        String id = only().id();
        assertThatThrownBy(() -> f.replays.replay(id, ada, "provider back", Optional.empty(), false))
                .hasMessageContaining("failed (simulated)");
        assertThat(only().state()).isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);
        return id;
    }

    @Test
    void twoResumesOfOneReplayAtOnceSendItOnce() {
        String id = waitingInIdempotencyCheck();
        f.clock.advance(Duration.ofMinutes(10)); // long after the failed send: anyone may resume it
        List<ReplayOutcome> bobs = new ArrayList<>();
        // Bob's whole resume runs while Ada's is between reading the record and her next write of it.
        f.interleaved.beforeSaves(
                id, 1, r -> bobs.add(f.replays.replay(id, bob, "provider back", Optional.empty(), false)));

        ReplayOutcome adas = f.replays.replay(id, ada, "provider back", Optional.empty(), false);

        assertThat(f.sender.sent()).as("replays sent").hasSize(1);
        assertThat(bobs).singleElement().isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(adas).isInstanceOf(ReplayOutcome.Conflict.class);
        assertThat(only().state()).isEqualTo(QuarantineState.REPLAYED);
    }

    @Test
    void aResumeWhileAnothersSendIsInFlightIsDeferredInsteadOfSendingAgain() {
        String id = waitingInIdempotencyCheck();
        f.clock.advance(Duration.ofMinutes(10));
        List<ReplayOutcome> bobs = new ArrayList<>();
        // Ada has saved the record for sending and sent it; Bob resumes before her REPLAYED save.
        f.interleaved.beforeSaves(id, 2, r -> {
            if (r.state() == QuarantineState.REPLAYED) {
                bobs.add(f.replays.replay(id, bob, "provider back", Optional.empty(), false));
            }
        });

        ReplayOutcome adas = f.replays.replay(id, ada, "provider back", Optional.empty(), false);

        assertThat(f.sender.sent()).as("replays sent").hasSize(1);
        assertThat(adas).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(bobs)
                .singleElement()
                .isInstanceOfSatisfying(
                        ReplayOutcome.Deferred.class, d -> assertThat(d.key()).isEqualTo("a replay by ada"));
        assertThat(only().state()).isEqualTo(QuarantineState.REPLAYED);
    }

    @Test
    void aResumedReplayRestartsTheRecordsRetentionSoItIsNotArchivedWhileInFlight() {
        String id = waitingInIdempotencyCheck();
        f.clock.advance(f.settings.retention().minusSeconds(30)); // about to expire, unchanged since the failed send
        List<QuarantineRecord> whileInFlight = new ArrayList<>();
        f.interleaved.beforeSaves(id, 2, r -> {
            if (r.state() == QuarantineState.REPLAYED) {
                f.clock.advance(Duration.ofMinutes(1)); // the send took a while: the old change is past retention
                f.sweep();
                whileInFlight.add(f.ledger.find(id).orElseThrow());
            }
        });

        ReplayOutcome outcome = f.replays.replay(id, ada, "provider back", Optional.empty(), false);

        assertThat(whileInFlight)
                .singleElement()
                .satisfies(r -> assertThat(r.archivedToStore())
                        .as("archived by the sweep mid-replay: %s", r.audit())
                        .isFalse());
        assertThat(outcome).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(only().state()).isEqualTo(QuarantineState.REPLAYED);
    }
}
