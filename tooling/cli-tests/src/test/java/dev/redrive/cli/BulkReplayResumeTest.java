package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * A bulk replay of {@value #COUNT} dead letters, stopped half-way twice — once by a network failure on a send, once by Ctrl-C —
 * and resumed by running the same command again: every message is sent exactly once.
 */
@LocalAwsTest(resetBeforeEach = true)
class BulkReplayResumeTest {

    static final int COUNT = 150;
    /** The send that fails in the first run, and the sends after which the operator stops the second. */
    static final int FAILS_AT = 60;

    static final int STOPPED_AFTER = 45;

    @Test
    void anInterruptedBulkReplayResumesAndSendsEachMessageExactlyOnce(LocalAws aws) {
        CliRig rig = new CliRig(aws);
        for (int i = 0; i < COUNT; i++) {
            rig.deadLetter(
                    id(i),
                    Orders.v2("e-bulk-" + i, 100 + i),
                    FailureClass.TRANSIENT,
                    "Timeout",
                    Duration.ofMinutes(COUNT - i));
        }
        String[] command = {
            "replay", "--filter", "queue=order-placed-email,class=TRANSIENT", "--actor", "ada", "--quiet"
        };

        CliRig.Run failed = rig.run(failingAfter(FAILS_AT), command);

        assertThat(failed.exitCode()).isEqualTo(ExitCodes.CONFIG);
        assertThat(failed.out()).contains("Replayed " + FAILS_AT + " of " + COUNT + ": sent " + FAILS_AT);
        assertThat(failed.err())
                .contains("stopped after an error on " + id(FAILS_AT)
                        + ": could not reach AWS: connection reset by the test")
                .contains((COUNT - FAILS_AT) + " of " + COUNT + " not done; run the same command again to resume");
        assertThat(rig.record(id(FAILS_AT)).state())
                .as("the message in hand stopped mid-way")
                .isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);

        CliContext context = CliContext.of(rig.env, rig.clock, "os-user");
        CliRig.Run interrupted = rig.run(context.withSenderWrapper(stopAfter(STOPPED_AFTER, context.stop())), command);

        assertThat(interrupted.exitCode()).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(interrupted.out())
                .contains("Replayed " + STOPPED_AFTER + " of " + (COUNT - FAILS_AT) + ": sent " + STOPPED_AFTER);
        assertThat(interrupted.err())
                .contains((COUNT - FAILS_AT - STOPPED_AFTER) + " of " + (COUNT - FAILS_AT)
                        + " not done; run the same command again to resume");

        CliRig.Run resumed = rig.run(command);

        assertThat(resumed.exitCode()).isZero();
        assertThat(resumed.out())
                .contains("Replayed " + (COUNT - FAILS_AT - STOPPED_AFTER) + " of " + (COUNT - FAILS_AT - STOPPED_AFTER)
                        + ": sent " + (COUNT - FAILS_AT - STOPPED_AFTER));
        Map<String, Integer> sends = rig.sendsById();
        assertThat(sends).hasSize(COUNT);
        assertThat(sends.values()).containsOnly(1);
        Map<QuarantineState, Integer> states = new EnumMap<>(QuarantineState.class);
        for (QuarantineState s : QuarantineState.values()) {
            int n = rig.ledger.inState(s, Optional.of(CliRig.QUEUE), COUNT * 2).size();
            if (n > 0) {
                states.put(s, n);
            }
        }
        assertThat(states).isEqualTo(Map.of(QuarantineState.REPLAYED, COUNT));
        QuarantineRecord resumedMidWay = rig.record(id(FAILS_AT));
        assertThat(resumedMidWay.replayCount()).isEqualTo(1);
        assertThat(resumedMidWay.audit())
                .extracting(AuditEntry::to)
                .as("each state once, and the resume of the interrupted replay recorded where it resumed")
                .containsExactly(
                        QuarantineState.QUARANTINED,
                        QuarantineState.UNDER_REVIEW,
                        QuarantineState.SCHEMA_CHECK,
                        QuarantineState.IDEMPOTENCY_CHECK,
                        QuarantineState.IDEMPOTENCY_CHECK,
                        QuarantineState.REPLAYED);
        assertThat(resumedMidWay.audit().get(4)).satisfies(resume -> {
            assertThat(resume.from()).isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);
            assertThat(resume.reason()).startsWith("resuming the replay");
        });

        CliRig.Run again = rig.run("replay", id(0), id(COUNT - 1), "--actor", "ada");

        assertThat(again.exitCode())
                .as("already REPLAYED is answered like already ARCHIVED: not replayed by this run (issue 39)")
                .isEqualTo(ExitCodes.PARTIAL);
        assertThat(again.out())
                .contains("already REPLAYED: nothing sent")
                .contains("already resolved (nothing sent) 2 (REPLAYED 2, ARCHIVED 0)");
        assertThat(rig.drainSource()).isEmpty();
    }

    private static String id(int i) {
        return String.format("q-bulk-%03d", i);
    }

    /** A sender whose connection drops on send number {@code n + 1}. */
    private static UnaryOperator<ReplaySender> failingAfter(int n) {
        AtomicInteger sends = new AtomicInteger();
        return real -> (queue, body, attributes) -> {
            if (sends.incrementAndGet() > n) {
                throw SdkClientException.create("connection reset by the test");
            }
            return real.send(queue, body, attributes);
        };
    }

    /** A sender after whose {@code n}-th send the operator presses Ctrl-C (the stop flag the hook sets). */
    private static UnaryOperator<ReplaySender> stopAfter(int n, AtomicBoolean stop) {
        AtomicInteger sends = new AtomicInteger();
        return real -> (queue, body, attributes) -> {
            String id = real.send(queue, body, attributes);
            if (sends.incrementAndGet() == n) {
                stop.set(true);
            }
            return id;
        };
    }
}
