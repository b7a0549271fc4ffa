package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.localstack.LocalAws;
import dev.redrive.localstack.LocalAwsTest;
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
 * A bulk replay of 500 dead letters, stopped half-way twice — once by a network failure on a send, once by Ctrl-C —
 * and resumed by running the same command again: every message is sent exactly once.
 */
@LocalAwsTest(resetBeforeEach = true)
class BulkReplayResumeTest {

    static final int COUNT = 500;

    @Test
    void anInterruptedBulkReplayResumesAndSendsEachMessageExactlyOnce(LocalAws aws) {
        CliRig rig = new CliRig(aws);
        for (int i = 0; i < COUNT; i++) {
            rig.deadLetter(
                    String.format("q-bulk-%03d", i),
                    Orders.v2("e-bulk-" + i, 100 + i),
                    FailureClass.TRANSIENT,
                    "Timeout",
                    Duration.ofMinutes(COUNT - i));
        }
        String[] command = {
            "replay", "--filter", "queue=order-placed-email,class=TRANSIENT", "--actor", "ada", "--quiet"
        };

        CliRig.Run failed = rig.run(failingAfter(200), command);

        assertThat(failed.exitCode()).isEqualTo(ExitCodes.CONFIG);
        assertThat(failed.out()).contains("Replayed 200 of 500: sent 200");
        assertThat(failed.err())
                .contains(
                        "stopped after an error on q-bulk-200: could not reach AWS: connection " + "reset by the test")
                .contains("300 of 500 not done; run the same command again to resume");
        assertThat(rig.record("q-bulk-200").state())
                .as("the message in hand stopped mid-way")
                .isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);

        CliContext context = CliContext.of(rig.env, rig.clock, "os-user");
        CliRig.Run interrupted = rig.run(context.withSenderWrapper(stopAfter(150, context.stop())), command);

        assertThat(interrupted.exitCode()).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(interrupted.out()).contains("Replayed 150 of 300: sent 150");
        assertThat(interrupted.err()).contains("150 of 300 not done; run the same command again to resume");

        CliRig.Run resumed = rig.run(command);

        assertThat(resumed.exitCode()).isZero();
        assertThat(resumed.out()).contains("Replayed 150 of 150: sent 150");
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
        QuarantineRecord resumedMidWay = rig.record("q-bulk-200");
        assertThat(resumedMidWay.replayCount()).isEqualTo(1);
        assertThat(resumedMidWay.audit())
                .extracting(AuditEntry::to)
                .containsExactly(
                        QuarantineState.QUARANTINED,
                        QuarantineState.UNDER_REVIEW,
                        QuarantineState.SCHEMA_CHECK,
                        QuarantineState.IDEMPOTENCY_CHECK,
                        QuarantineState.REPLAYED);

        CliRig.Run again = rig.run("replay", "q-bulk-000", "q-bulk-499", "--actor", "ada");

        assertThat(again.exitCode())
                .as("replayed by an earlier run is done, not a failure")
                .isZero();
        assertThat(again.out()).contains("skipped: it is REPLAYED").contains("replayed by an earlier run 2");
        assertThat(rig.drainSource()).isEmpty();
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
