package dev.redrive.core.sweeper;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static dev.redrive.testing.sweeper.SweeperFixture.redriven;
import static dev.redrive.testing.sweeper.SweeperFixture.returned;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.testing.Attributes;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SweeperTest {

    final SweeperFixture f = new SweeperFixture();

    QuarantineRecord only() {
        assertThat(f.ledger.all()).hasSize(1);
        return f.ledger.all().get(0);
    }

    @Test
    void everyArrivalIsQuarantinedWithItsClassificationThenDeleted() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached("o-1|x", FailureClass.SCHEMA, "NotJson", null, T0));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("o-2|x", FailureClass.PERMANENT, "CardDeclined", null, T0));

        SweepReport report = f.sweep();

        assertThat(report.quarantinedByClass())
                .containsEntry(FailureClass.SCHEMA, 1)
                .containsEntry(FailureClass.PERMANENT, 1);
        assertThat(f.dlq.depth(ROUTE.deadLetterQueue())).isZero();
        assertThat(f.ledger.all()).allSatisfy(r -> {
            assertThat(r.state()).isEqualTo(QuarantineState.QUARANTINED);
            assertThat(r.audit()).singleElement().satisfies(a -> {
                assertThat(a.actor()).isEqualTo(Actor.AUTOMATION);
                assertThat(a.to()).isEqualTo(QuarantineState.QUARANTINED);
            });
        });
    }

    @Test
    void aDeadLetterWhoseMetadataNamesAMalformedKeyIsQuarantinedWithItsReasonAndBlocksNoOther() {
        ArrivedDeadLetter good = attached("o-1|x", FailureClass.TRANSIENT, "Timeout", "payments", T0);
        ArrivedDeadLetter.AttachedFailure a = good.attached().orElseThrow();
        ArrivedDeadLetter malformed = new ArrivedDeadLetter(
                "m-bad",
                "rh",
                "o-2|x",
                Map.of(),
                2,
                T0,
                Optional.of(new ArrivedDeadLetter.AttachedFailure(a.consumer(), "bare-key", "s-bad", a.failure())),
                Optional.empty());
        f.dlq.add(ROUTE.deadLetterQueue(), malformed);
        f.dlq.add(ROUTE.deadLetterQueue(), good);

        SweepReport report = f.sweep();

        assertThat(report.quarantinedByClass()).containsEntry(FailureClass.TRANSIENT, 2);
        assertThat(f.dlq.depth(ROUTE.deadLetterQueue())).isZero();
        QuarantineRecord bad = f.ledger.all().stream()
                .filter(r -> r.sourceMessageId().equals("s-bad"))
                .findFirst()
                .orElseThrow();
        assertThat(bad.note()).contains("not consumer#key (bare-key)");
        assertThat(bad.idempotencyKey())
                .as("read from the payload instead of the metadata")
                .isEqualTo("scripted#o-2");
    }

    @Test
    void aRedrivenMessageWithoutAnyRecordIsPoison() {
        f.dlq.add(ROUTE.deadLetterQueue(), redriven("o-3|x", 5));

        f.sweep();

        QuarantineRecord r = only();
        assertThat(r.classification().failureClass()).isEqualTo(FailureClass.POISON);
        assertThat(r.classification().errorType()).isEqualTo("NoFailureRecorded");
        assertThat(r.idempotencyKey()).isEqualTo("scripted#o-3");
        assertThat(r.attributes()).containsEntry("trace", MessageAttribute.ofString("t"));
    }

    @Test
    void aClaimLeftInProgressWithAnExpiredLeaseIsEvidenceOfPoison() {
        f.claims.claim(
                LeasePolicy.DEFAULT.request(
                        new IdempotencyKey("scripted", "o-4"),
                        "h",
                        MessageOrigin.UNKNOWN,
                        T0.minus(Duration.ofHours(1)),
                        Duration.ofSeconds(30)),
                T0.minus(Duration.ofHours(1)));
        f.dlq.add(ROUTE.deadLetterQueue(), redriven("o-4|x", 5));

        f.sweep();

        assertThat(only().classification().failureClass()).isEqualTo(FailureClass.POISON);
        assertThat(only().classification().errorType()).isEqualTo("VanishedMidFlight");
    }

    @Test
    void aDeadLetterSeenTwiceIsOneRecordEvenIfTheSweeperDiedBeforeDeleting() {
        ArrivedDeadLetter letter = attached("o-5|x", FailureClass.SCHEMA, "NotJson", null, T0);
        f.dlq.add(ROUTE.deadLetterQueue(), letter);
        f.dlq.failNextDeletes(1);

        assertThatThrownBy(f::sweep).hasMessageContaining("simulated crash");
        assertThat(f.dlq.depth(ROUTE.deadLetterQueue())).as("nothing lost").isEqualTo(1);
        f.dlq.redeliverUndeleted();
        SweepReport second = f.sweep();

        assertThat(f.ledger.all()).hasSize(1);
        assertThat(second.alreadyQuarantinedCount()).isEqualTo(1);
        assertThat(f.dlq.depth(ROUTE.deadLetterQueue())).isZero();
    }

    @Test
    void theSameDeadLetterTwiceInOneReceivedBatchIsOneRecordAndBothCopiesLeave() {
        ArrivedDeadLetter letter = attached("o-twin|x", FailureClass.SCHEMA, "NotJson", null, T0);
        ArrivedDeadLetter copy = new ArrivedDeadLetter(
                "copy-" + letter.messageId(),
                "rh-copy",
                letter.body(),
                letter.attributes(),
                letter.receiveCount(),
                letter.sentAt(),
                letter.attached(),
                letter.replay());
        f.dlq.add(ROUTE.deadLetterQueue(), letter);
        f.dlq.add(ROUTE.deadLetterQueue(), copy);

        SweepReport report = f.sweep();

        assertThat(f.ledger.all()).hasSize(1);
        assertThat(report.quarantinedTotal()).isEqualTo(1);
        assertThat(report.alreadyQuarantinedCount()).isEqualTo(1);
        assertThat(f.dlq.depth(ROUTE.deadLetterQueue())).isZero();
    }

    @Test
    void aSecondSweeperFindsTheLeaseHeldAndDoesNothing() {
        f.leases.acquire(ROUTE.leaseName(), "other", Duration.ofMinutes(5), T0);
        f.dlq.add(ROUTE.deadLetterQueue(), redriven("o-6|x", 5));

        SweepReport report = f.sweep();

        assertThat(report.skippedLeaseHeld()).isTrue();
        assertThat(f.ledger.all()).isEmpty();
        assertThat(f.dlq.receiveCalls()).isZero();
    }

    @Test
    void aLateSweeperWhoseLeaseWasTakenOverHasItsWritesRejectedAndStops() {
        for (int i = 0; i < 15; i++) {
            f.dlq.add(ROUTE.deadLetterQueue(), redriven("late-" + i + "|x", 5));
        }
        // The sweeper stalls after its first batch; its lease lapses and another sweeper takes over.
        SweepReport report = f.sweeper.sweep(ROUTE, "late", Duration.ofMinutes(5), () -> {
            if (f.dlq.receiveCalls() == 1) {
                f.clock.advance(Duration.ofMinutes(6));
                assertThat(f.leases.acquire(ROUTE.leaseName(), "rescuer", Duration.ofMinutes(5), f.clock.instant()))
                        .isPresent();
            }
            return true;
        });

        assertThat(report.wasFencedOut()).isTrue();
        assertThat(f.ledger.all()).as("only the first batch of 10 was written").hasSize(10);
        assertThat(f.dlq.depth(ROUTE.deadLetterQueue()))
                .as("the rest stays for the rescuer")
                .isEqualTo(5);
    }

    /** A replay is the original: body and every attribute with its type (Binary and Number included), plus its marker. */
    @Test
    void aReplayCarriesEveryAttributeWithItsTypeAndItsMarker() {
        Instant during = T0.minus(Duration.ofMinutes(30));
        f.windows.add(new MaintenanceWindow("w-1", "payments", T0.minus(Duration.ofHours(1)), T0, "ops-lead", ""));
        Map<String, MessageAttribute> original = Attributes.everyType();
        ArrivedDeadLetter letter = attached("typed|x", FailureClass.TRANSIENT, "Timeout", "payments", during);
        f.dlq.add(
                ROUTE.deadLetterQueue(),
                new ArrivedDeadLetter(
                        letter.messageId(),
                        letter.receiptHandle(),
                        letter.body(),
                        original,
                        letter.receiveCount(),
                        letter.sentAt(),
                        letter.attached(),
                        letter.replay()));

        f.sweep();

        assertThat(f.sender.sent()).singleElement().satisfies(s -> {
            assertThat(s.body()).isEqualTo("typed|x");
            Map<String, MessageAttribute> sent = new LinkedHashMap<>(s.attributes());
            assertThat(sent.remove(ReplayMarker.ATTRIBUTE)).isNotNull();
            assertThat(sent).isEqualTo(original);
        });
    }

    @Test
    void transientFailuresInsideAnApprovedWindowAreReplayedAndOthersWait() {
        Instant during = T0.minus(Duration.ofMinutes(30));
        f.windows.add(new MaintenanceWindow(
                "w-1", "payments", T0.minus(Duration.ofHours(1)), T0, "ops-lead", "card network maintenance CHG-42"));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("in|x", FailureClass.TRANSIENT, "Timeout", "payments", during));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("other-dep|x", FailureClass.TRANSIENT, "Timeout", "email", during));
        f.dlq.add(
                ROUTE.deadLetterQueue(),
                attached("after|x", FailureClass.TRANSIENT, "Timeout", "payments", T0.plusSeconds(1)));
        f.dlq.add(
                ROUTE.deadLetterQueue(),
                attached("perm|x", FailureClass.PERMANENT, "CardDeclined", "payments", during));

        SweepReport report = f.sweep();

        assertThat(report.replayOutcomes()).containsEntry("Sent", 1).hasSize(1);
        assertThat(f.sender.sent()).singleElement().satisfies(s -> {
            assertThat(s.queue()).isEqualTo("orders");
            assertThat(s.body()).isEqualTo("in|x");
            assertThat(ReplayMarker.decode(s.stringAttributes().get(ReplayMarker.ATTRIBUTE))
                            .orElseThrow()
                            .replayCount())
                    .isEqualTo(1);
        });
        assertThat(f.ledger.countByState())
                .containsEntry(QuarantineState.REPLAYED, 1)
                .containsEntry(QuarantineState.QUARANTINED, 3);
        QuarantineRecord replayed =
                f.ledger.inState(QuarantineState.REPLAYED, Optional.empty(), 1).get(0);
        assertThat(replayed.audit())
                .extracting(AuditEntry::to)
                .containsExactly(
                        QuarantineState.QUARANTINED,
                        QuarantineState.UNDER_REVIEW,
                        QuarantineState.SCHEMA_CHECK,
                        QuarantineState.IDEMPOTENCY_CHECK,
                        QuarantineState.REPLAYED);
        assertThat(replayed.audit().get(1).reason())
                .contains("maintenance window w-1")
                .contains("ops-lead");
        assertThat(f.stats.totals().get(FailureClass.TRANSIENT).sent()).isEqualTo(1);
    }

    @Test
    void deadLettersAreReplayedInTheOrderTheyArrivedInTheirDeadLetterQueue() {
        Instant during = T0.minus(Duration.ofMinutes(30));
        f.windows.add(new MaintenanceWindow("w-1", "payments", T0.minus(Duration.ofHours(1)), T0, "ops-lead", ""));
        List<String> arrivalOrder = List.of("g-1|x", "g-2|x", "g-3|x", "g-4|x", "g-5|x", "g-6|x");
        for (String body : arrivalOrder) {
            // A FIFO group's head and the messages that waited behind it arrive in the group's order.
            f.dlq.add(ROUTE.deadLetterQueue(), attached(body, FailureClass.TRANSIENT, "Timeout", "payments", during));
        }

        f.sweep();

        assertThat(f.sender.sent())
                .extracting(dev.redrive.testing.replay.RecordingReplaySender.Sent::body)
                .containsExactlyElementsOf(arrivalOrder);
    }

    @Test
    void nothingIsReplayedWhileItsMaintenanceWindowIsStillOpen() {
        f.windows.add(new MaintenanceWindow("w", "payments", T0.minusSeconds(3600), T0.plusSeconds(3600), "a", ""));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("early|x", FailureClass.TRANSIENT, "Timeout", "payments", T0));

        SweepReport during = f.sweep();
        f.clock.advance(Duration.ofHours(2));
        SweepReport after = f.sweep();

        assertThat(during.replayOutcomes()).isEmpty();
        assertThat(after.replayOutcomes()).containsEntry("Sent", 1);
    }

    @Test
    void aDeadLetterWhoseEffectWasAlreadyAppliedIsMarkedAndNothingIsSent() {
        IdempotencyKey key = new IdempotencyKey("scripted", "done");
        f.claims.claim(
                LeasePolicy.DEFAULT.request(
                        key, PayloadFingerprint.of("done|x"), MessageOrigin.UNKNOWN, T0, Duration.ofSeconds(30)),
                T0);
        f.claims.complete(key, 1, "ok", T0);
        f.windows.add(new MaintenanceWindow("w", "payments", T0.minusSeconds(3600), T0.plusSeconds(1), "a", ""));
        f.clock.advance(Duration.ofSeconds(2)); // the window is over
        f.dlq.add(ROUTE.deadLetterQueue(), attached("done|x", FailureClass.TRANSIENT, "Timeout", "payments", T0));

        SweepReport report = f.sweep();

        assertThat(report.replayOutcomes()).containsEntry("AlreadyApplied", 1);
        assertThat(f.sender.sent()).isEmpty();
        assertThat(only().state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(only().note()).contains("already applied").contains("nothing sent");
    }

    @Test
    void aReplayWhoseClaimMayHaveExpiredIsRefusedNeverSentAsNotApplied() {
        IdempotencyKey key = new IdempotencyKey("scripted", "old");
        f.claims.claim(
                LeasePolicy.DEFAULT.request(
                        key, PayloadFingerprint.of("old|x"), MessageOrigin.UNKNOWN, T0, Duration.ofSeconds(30)),
                T0);
        f.claims.complete(key, 1, "ok", T0); // applied; the record counts for 35 days
        f.dlq.add(ROUTE.deadLetterQueue(), attached("old|x", FailureClass.PERMANENT, "Rejected", "payments", T0));
        f.sweep();
        f.clock.advance(Duration.ofDays(36)); // a person replays it late (its claim has expired meanwhile)

        var outcome = f.replays.replay(only().id(), Actor.person("ops"), "late look", Optional.empty(), false);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        dev.redrive.core.replay.ReplayOutcome.Refused.class,
                        r -> assertThat(r.reason()).contains("may have expired"));
        assertThat(f.sender.sent()).as("never treated as not applied").isEmpty();
    }

    @Test
    void aReplayOfAKeyInProgressWaitsForTheNextRun() {
        IdempotencyKey key = new IdempotencyKey("scripted", "busy");
        f.windows.add(new MaintenanceWindow("w", "payments", T0.minusSeconds(3600), T0.plusSeconds(1), "a", ""));
        f.clock.advance(Duration.ofSeconds(2)); // the window is over
        f.dlq.add(ROUTE.deadLetterQueue(), attached("busy|x", FailureClass.TRANSIENT, "Timeout", "payments", T0));
        f.claims.claim(
                LeasePolicy.DEFAULT.request(
                        key, PayloadFingerprint.of("busy|x"), MessageOrigin.UNKNOWN, T0, Duration.ofSeconds(60)),
                T0);

        assertThat(f.sweep().replayOutcomes()).containsEntry("Deferred", 1);
        assertThat(only().state()).isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);
        f.clock.advance(Duration.ofMinutes(5));
        SweepReport next = f.sweep();

        assertThat(next.replayOutcomes()).containsEntry("Sent", 1);
        assertThat(only().state()).isEqualTo(QuarantineState.REPLAYED);
    }

    @Test
    void anOlderPayloadIsUpcastAndAnIncompatibleOneArchivedWithTheReason() {
        Actor ada = Actor.person("ada");
        f.dlq.add(ROUTE.deadLetterQueue(), attached("v1:old|x", FailureClass.SCHEMA, "OutdatedVersion", null, T0));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("v0:ancient|x", FailureClass.SCHEMA, "UnknownVersion", null, T0));
        f.sweep();
        List<QuarantineRecord> waiting = f.ledger.inState(QuarantineState.QUARANTINED, Optional.empty(), 10);
        assertThat(waiting).as("SCHEMA waits for a person").hasSize(2);

        ReplayOutcome upcast =
                f.replays.replay(byBody("v1:old|x").id(), ada, "fixed by upcaster", Optional.empty(), false);
        ReplayOutcome refused = f.replays.replay(byBody("v0:ancient|x").id(), ada, "try", Optional.empty(), false);

        assertThat(upcast)
                .isInstanceOfSatisfying(
                        ReplayOutcome.Sent.class, s -> assertThat(s.upcast()).isEqualTo("upcast v1 to v2"));
        assertThat(f.sender.sent())
                .singleElement()
                .satisfies(s -> assertThat(s.body()).isEqualTo("old|x"));
        assertThat(refused)
                .isInstanceOfSatisfying(
                        ReplayOutcome.Refused.class, r -> assertThat(r.reason()).contains("no upcaster"));
        QuarantineRecord archived = byBody("v0:ancient|x");
        assertThat(archived.state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(archived.note()).contains("incompatible").contains("no upcaster");
        assertThat(archived.audit()).extracting(AuditEntry::actor).contains(ada);
    }

    @Test
    void anIncompatiblePayloadOnTheAutoReplayPathIsArchivedToTheStoreInTheSameRun() {
        f.windows.add(new MaintenanceWindow("w", "payments", T0.minusSeconds(3600), T0.plusSeconds(1), "a", ""));
        f.clock.advance(Duration.ofSeconds(2));
        for (int i = 0; i < 12; i++) {
            f.dlq.add(
                    ROUTE.deadLetterQueue(),
                    attached("ok-" + i + "|x", FailureClass.TRANSIENT, "Timeout", "payments", T0));
        }
        f.dlq.add(ROUTE.deadLetterQueue(), attached("v0:old|x", FailureClass.TRANSIENT, "Timeout", "payments", T0));

        SweepReport report = f.sweep();

        assertThat(report.replayOutcomes()).containsEntry("Sent", 12).containsEntry("Refused", 1);
        assertThat(f.sender.batches()).as("12 replays in batches of 10").isEqualTo(2);
        assertThat(report.archivedToStoreCount()).isEqualTo(1);
        ArchiveStore.Entry archived =
                f.archive.objects().values().iterator().next().get(0);
        assertThat(archived.archiveReason()).contains("incompatible").contains("no upcaster");
        assertThat(archived.body()).isEqualTo("v0:old|x");
    }

    @Test
    void aReplayThatDeadLettersAgainReopensItsRecordAndCountsAgainstTheSuccessRate() {
        f.windows.add(new MaintenanceWindow("w", "payments", T0.minusSeconds(3600), T0.plusSeconds(1), "a", ""));
        f.clock.advance(Duration.ofSeconds(2)); // the window is over
        f.dlq.add(ROUTE.deadLetterQueue(), attached("again|x", FailureClass.TRANSIENT, "Timeout", "payments", T0));
        f.sweep();
        var marker = ReplayMarker.decode(
                        f.sender.sent().get(0).stringAttributes().get(ReplayMarker.ATTRIBUTE))
                .orElseThrow();
        f.windows.remove("w");
        f.dlq.add(ROUTE.deadLetterQueue(), returned("again|x", marker));

        SweepReport report = f.sweep();

        assertThat(report.replaysReturnedByClass()).containsEntry(FailureClass.TRANSIENT, 1);
        assertThat(f.ledger.all()).hasSize(1);
        assertThat(only().state()).isEqualTo(QuarantineState.QUARANTINED);
        assertThat(only().replayCount()).isEqualTo(1);
        assertThat(only().note()).contains("replay #1 dead-lettered again");
        assertThat(f.stats.totals().get(FailureClass.TRANSIENT).successRate()).isEqualTo(0.0);
    }

    @Test
    void deadLettersPastRetentionAreArchivedInBatchesAndLeaveTombstones() {
        for (int i = 0; i < 3; i++) {
            f.dlq.add(ROUTE.deadLetterQueue(), attached("old-" + i + "|x", FailureClass.PERMANENT, "Rule", null, T0));
        }
        f.sweep();
        f.replays.replay(f.ledger.all().get(0).id(), Actor.person("ada"), "fix", Optional.empty(), false);
        f.clock.advance(Duration.ofDays(8));

        SweepReport report = f.sweep();

        assertThat(report.archivedToStoreCount()).isEqualTo(3);
        assertThat(f.archive.objects())
                .as("one object per queue and arrival day")
                .hasSize(1);
        List<ArchiveStore.Entry> entries =
                f.archive.objects().values().iterator().next();
        assertThat(entries).hasSize(3).allSatisfy(e -> assertThat(e.body()).startsWith("old-"));
        assertThat(entries)
                .extracting(ArchiveStore.Entry::archiveReason)
                .anySatisfy(r -> assertThat(r).contains("expired before it was resolved"));
        assertThat(f.ledger.all()).allSatisfy(r -> {
            assertThat(r.archiveRef()).isEqualTo(report.archiveObjects().get(0));
            assertThat(r.body()).isNull();
            assertThat(r.state()).isIn(QuarantineState.ARCHIVED, QuarantineState.REPLAYED);
        });
        assertThat(f.sweep().archivedToStoreCount())
                .as("tombstones are not archived twice")
                .isZero();
    }

    @Test
    void largePayloadsAreKeptAsideAndStillReplayable() {
        String big = "big|" + "x".repeat(5_000);
        f.dlq.add(ROUTE.deadLetterQueue(), attached(big, FailureClass.PERMANENT, "Rule", null, T0));
        f.sweep();
        assertThat(only().body()).isNull();
        assertThat(only().bodyRef()).isNotNull();

        f.replays.replay(only().id(), Actor.person("ada"), "fixed", Optional.empty(), false);

        assertThat(f.sender.sent())
                .singleElement()
                .satisfies(s -> assertThat(s.body()).isEqualTo(big));
        assertThat(f.claims.find(new IdempotencyKey("scripted", "big"), T0)).isEmpty();
        assertThat(ClaimStatus.values()).isNotEmpty();
    }

    private QuarantineRecord byBody(String body) {
        return f.ledger.all().stream()
                .filter(r ->
                        body.equals(r.body()) || (r.body() != null && r.body().equals(body.replaceFirst("^v1:", ""))))
                .findFirst()
                .orElseThrow();
    }
}
