package dev.redrive.core.sweeper;

import static dev.redrive.core.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.core.sweeper.SweeperFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.payload.InMemoryClaimChecks;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * No single dead letter can block its route: a record whose payload cannot be read (its claim-check store answers
 * with an error for that one object, as S3 answered 403 AccessDenied for a missing key to a role without
 * s3:ListBucket) fails on its own, with its reason, and the archive run and the replay batch go on with the rest.
 */
class OneUnreadableRecordTest {

    /** What the S3 adapter let through for a missing key without s3:ListBucket: an error that is no "gone". */
    static final String ACCESS_DENIED = "Access Denied (Service: S3, Status Code: 403)";

    final SweeperFixture f = new SweeperFixture();
    final UnreadableFor checks = new UnreadableFor(f.claimChecks);
    final ReplayService replays = f.replayService().claimChecks(checks).build();
    final Sweeper sweeper = f.sweeper(f.settings, replays);

    /** A claim-check dead letter of {@code key} as its consumer dead-lettered it (PERMANENT). */
    ClaimChecks.ClaimCheck deadLetter(String key) {
        ClaimChecks.ClaimCheck check = f.claimChecks.checkIn(key + "|payload of " + key);
        Map<String, MessageAttribute> attributes = new HashMap<>(check.messageAttributes());
        FailureRecord failure = new FailureRecord(
                new Classification(FailureClass.PERMANENT, "Rejected", "rejected", null),
                2,
                T0,
                T0,
                ROUTE.sourceQueue());
        f.dlq.add(
                ROUTE.deadLetterQueue(),
                new ArrivedDeadLetter(
                        UUID.randomUUID().toString(),
                        "rh",
                        check.body(),
                        attributes,
                        2,
                        T0,
                        Optional.of(new ArrivedDeadLetter.AttachedFailure(
                                "scripted", "scripted#" + key, UUID.randomUUID().toString(), failure)),
                        Optional.empty()));
        return check;
    }

    SweepReport sweep() {
        return sweeper.sweep(ROUTE, "test", Duration.ofMinutes(5), () -> true);
    }

    QuarantineRecord recordOf(ClaimChecks.ClaimCheck check) {
        return f.ledger.all().stream()
                .filter(r -> check.body().equals(r.body()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no record keeps the pointer " + check.body()));
    }

    @Test
    void anArchiveRunArchivesEveryOtherRecordOfTheRouteWhenOneCannotBeRead() {
        ClaimChecks.ClaimCheck before = deadLetter("a");
        ClaimChecks.ClaimCheck unreadable = deadLetter("b");
        ClaimChecks.ClaimCheck after = deadLetter("c");
        sweep();
        checks.failing(unreadable.body());
        f.clock.advance(f.settings.retention().plusMinutes(1));

        SweepReport report = sweep();

        assertThat(report.archivedToStoreCount())
                .as("the two readable records are archived")
                .isEqualTo(2);
        assertThat(recordOf(before).archivedToStore()).isTrue();
        assertThat(recordOf(after).archivedToStore()).isTrue();
        QuarantineRecord failed = f.ledger.find(idOf(unreadable)).orElseThrow();
        assertThat(failed.archivedToStore())
                .as("the unreadable one is left for the next run")
                .isFalse();
        assertThat(report.toString())
                .as("the run says which record failed and why")
                .contains(failed.id())
                .contains(ACCESS_DENIED);

        checks.readable(unreadable.body());
        f.clock.advance(Duration.ofMinutes(5));
        assertThat(sweep().archivedToStoreCount())
                .as("once readable, the next run archives it")
                .isEqualTo(1);
        assertThat(f.ledger.find(failed.id()).orElseThrow().archivedToStore()).isTrue();
    }

    @Test
    void aReplayBatchReplaysEveryOtherRecordWhenOneCannotBeRead() {
        ClaimChecks.ClaimCheck before = deadLetter("d");
        ClaimChecks.ClaimCheck unreadable = deadLetter("e");
        ClaimChecks.ClaimCheck after = deadLetter("f");
        sweep();
        checks.failing(unreadable.body());
        List<String> ids = List.of(idOf(before), idOf(unreadable), idOf(after));

        Map<String, ReplayOutcome> outcomes =
                replays.replayAll(ids, Actor.person("ada"), "looked at them", Optional.empty());

        assertThat(outcomes.get(idOf(before))).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(outcomes.get(idOf(after))).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(f.sender.sent()).hasSize(2);
        assertThat(outcomes.get(idOf(unreadable)).describe())
                .as("the failed record's outcome says why")
                .contains(ACCESS_DENIED);
        assertThat(f.ledger.find(idOf(unreadable)).orElseThrow().state())
                .as("nothing was changed on it: the next attempt starts again")
                .isEqualTo(QuarantineState.QUARANTINED);
    }

    private String idOf(ClaimChecks.ClaimCheck check) {
        return recordOf(check).id();
    }

    /** The fake claim-check store, answering with an error for the pointers it is told to. */
    static final class UnreadableFor implements ClaimChecks {
        private final InMemoryClaimChecks inner;
        private final Set<String> failing = ConcurrentHashMap.newKeySet();

        UnreadableFor(InMemoryClaimChecks inner) {
            this.inner = inner;
        }

        void failing(String pointer) {
            failing.add(pointer);
        }

        void readable(String pointer) {
            failing.remove(pointer);
        }

        @Override
        public boolean isClaimCheck(String body, Map<String, String> attributes) {
            return inner.isClaimCheck(body, attributes);
        }

        @Override
        public String payloadOf(String body, Map<String, String> attributes) {
            if (failing.contains(body)) {
                throw new IllegalStateException(ACCESS_DENIED);
            }
            return inner.payloadOf(body, attributes);
        }

        @Override
        public ClaimCheck checkIn(String payload) {
            return inner.checkIn(payload);
        }

        @Override
        public void discard(String body, Map<String, String> attributes) {
            inner.discard(body, attributes);
        }
    }
}
