package dev.redrive.core.sweeper;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.testing.payload.InMemoryClaimChecks;
import dev.redrive.testing.sweeper.SweeperFixture;
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
        return deadLetter(f.claimChecks, key, new Classification(FailureClass.PERMANENT, "Rejected", "rejected", null));
    }

    /** A claim-check dead letter of {@code key}, its payload in {@code store}, failed with {@code failedWith}. */
    ClaimChecks.ClaimCheck deadLetter(InMemoryClaimChecks store, String key, Classification failedWith) {
        ClaimChecks.ClaimCheck check = store.checkIn(key + "|payload of " + key);
        Map<String, MessageAttribute> attributes = new HashMap<>(check.messageAttributes());
        FailureRecord failure = new FailureRecord(failedWith, 2, T0, T0, ROUTE.sourceQueue());
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
        String beforeId = idOf(before);
        String afterId = idOf(after);
        String unreadableId = idOf(unreadable);
        checks.failing(unreadable.body());
        f.clock.advance(f.settings.retention().plusMinutes(1));

        SweepReport report = sweep();

        assertThat(report.archivedToStoreCount())
                .as("the two readable records are archived")
                .isEqualTo(2);
        assertThat(f.ledger.find(beforeId).orElseThrow().archivedToStore()).isTrue();
        assertThat(f.ledger.find(afterId).orElseThrow().archivedToStore()).isTrue();
        QuarantineRecord failed = f.ledger.find(unreadableId).orElseThrow();
        assertThat(failed.archivedToStore())
                .as("the unreadable one is left for the next run")
                .isFalse();
        assertThat(report.toString())
                .as("the run says which record failed and why")
                .contains(failed.id())
                .contains(ACCESS_DENIED);
        assertThat(report.recordFailures()).containsOnlyKeys(failed.id());
        assertThat(report.recordFailures().get(failed.id()))
                .startsWith("archive: its payload could not be read")
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
        assertThat(outcomes.get(idOf(unreadable)))
                .isInstanceOfSatisfying(
                        ReplayOutcome.CheckFailed.class,
                        c -> assertThat(c.reason()).contains(ACCESS_DENIED));
        assertThat(f.ledger.find(idOf(unreadable)).orElseThrow().state())
                .as("nothing was changed on it: the next attempt starts again")
                .isEqualTo(QuarantineState.QUARANTINED);
    }

    @Test
    void aSweepWhoseAutoReplayMeetsAnUnreadableRecordReplaysTheRestReportsItAndStillArchives() {
        Classification refused = new Classification(FailureClass.TRANSIENT, "Timeout", "timed out", "payments");
        ClaimChecks.ClaimCheck fine = deadLetter(f.claimChecks, "g", refused);
        ClaimChecks.ClaimCheck unreadable = deadLetter(f.claimChecks, "h", refused);
        sweep();
        String unreadableId = idOf(unreadable);
        String fineId = idOf(fine);
        QuarantineRecord archivedByAPerson = deadLetterArchivedByAPerson("i");
        checks.failing(unreadable.body());
        f.windows.add(new MaintenanceWindow(
                "w", "payments", T0.minus(Duration.ofHours(1)), T0.plus(Duration.ofMinutes(1)), "ops-lead", ""));
        f.clock.advance(Duration.ofMinutes(2)); // the window is over: its dead letters are approved

        SweepReport report = sweep();

        assertThat(f.ledger.find(fineId).orElseThrow().state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(f.ledger.find(unreadableId).orElseThrow().state()).isEqualTo(QuarantineState.QUARANTINED);
        assertThat(report.replayOutcomes()).containsEntry("Sent", 1).containsEntry("CheckFailed", 1);
        assertThat(report.recordFailures()).containsOnlyKeys(unreadableId);
        assertThat(report.recordFailures().get(unreadableId))
                .startsWith("replay: ")
                .contains(ACCESS_DENIED);
        assertThat(f.ledger.find(archivedByAPerson.id()).orElseThrow().archivedToStore())
                .as("the archive step of the same run still ran")
                .isTrue();
    }

    /**
     * Without {@code s3:ListBucket}, S3 answers a payload that is gone with 403: the store refuses the read ({@link
     * InMemoryClaimChecks#withoutListBucket}). A replay then neither throws nor refuses and archives the dead letter
     * (a fix to the grants could make it readable): it leaves it as it was, with the reason.
     */
    @Test
    void aReplayOfAPayloadTheStoreRefusesLeavesTheRecordWithTheReasonAndReplaysTheRest() {
        InMemoryClaimChecks onAws = InMemoryClaimChecks.withoutListBucket();
        ReplayService replaysOnAws = f.replayService().claimChecks(onAws).build();
        Classification rejected = new Classification(FailureClass.PERMANENT, "Rejected", "rejected", null);
        ClaimChecks.ClaimCheck refused = deadLetter(onAws, "j", rejected);
        ClaimChecks.ClaimCheck fine = deadLetter(onAws, "k", rejected);
        f.sweeper(f.settings, replaysOnAws).sweep(ROUTE, "test", Duration.ofMinutes(5), () -> true);
        String refusedId = idOf(refused);
        onAws.discard(refused.body(), refused.attributes());

        ReplayOutcome dryRun = replaysOnAws.replay(refusedId, Actor.person("ada"), "dry", Optional.empty(), true);
        Map<String, ReplayOutcome> outcomes = replaysOnAws.replayAll(
                List.of(refusedId, idOf(fine)), Actor.person("ada"), "looked at them", Optional.empty());

        assertThat(dryRun).isInstanceOf(ReplayOutcome.CheckFailed.class);
        assertThat(outcomes.get(idOf(fine))).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(outcomes.get(refusedId))
                .isInstanceOfSatisfying(
                        ReplayOutcome.CheckFailed.class,
                        c -> assertThat(c.reason()).contains("AccessDenied").contains("gone"));
        assertThat(f.ledger.find(refusedId).orElseThrow().state())
                .as("not archived: it may only be unreadable by this role")
                .isEqualTo(QuarantineState.QUARANTINED);
    }

    @Test
    void theArchiveKeepsThePointerOfAPayloadTheStoreRefusesAndSaysGoneOrForbidden() {
        InMemoryClaimChecks onAws = InMemoryClaimChecks.withoutListBucket();
        ReplayService replaysOnAws = f.replayService().claimChecks(onAws).build();
        Sweeper sweeperOnAws = f.sweeper(f.settings, replaysOnAws);
        ClaimChecks.ClaimCheck refused =
                deadLetter(onAws, "l", new Classification(FailureClass.PERMANENT, "Rejected", "rejected", null));
        sweeperOnAws.sweep(ROUTE, "test", Duration.ofMinutes(5), () -> true);
        onAws.discard(refused.body(), refused.attributes());
        f.clock.advance(f.settings.retention().plusMinutes(1));

        SweepReport report = sweeperOnAws.sweep(ROUTE, "test", Duration.ofMinutes(5), () -> true);

        assertThat(report.recordFailures()).isEmpty();
        List<ArchiveStore.Entry> archived =
                f.archive.objects().values().stream().flatMap(List::stream).toList();
        assertThat(archived).singleElement().satisfies(e -> {
            assertThat(e.body()).isEqualTo(refused.body());
            assertThat(e.claimCheck()).isEqualTo(refused.body());
            assertThat(e.archiveReason())
                    .contains("only its claim check is kept")
                    .contains("AccessDenied");
        });
    }

    /** A plain dead letter that a person archived: the next sweep moves it to the archive store. */
    private QuarantineRecord deadLetterArchivedByAPerson(String key) {
        f.dlq.add(ROUTE.deadLetterQueue(), SweeperFixture.redriven(key + "|plain", 4));
        sweep();
        QuarantineRecord r = f.ledger.all().stream()
                .filter(x -> (key + "|plain").equals(x.body()))
                .findFirst()
                .orElseThrow();
        return f.ledger
                .save(
                        r.moveTo(QuarantineState.UNDER_REVIEW, Actor.person("ada"), "looking", T0)
                                .moveTo(QuarantineState.ARCHIVED, Actor.person("ada"), "not needed", T0),
                        Optional.empty())
                .orElseThrow();
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
