package dev.redrive.testing.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.lease.Lease;
import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.testing.Attributes;
import dev.redrive.testing.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link QuarantineLedger}, for the in-memory fake and DynamoDB. The ledger checks its fence against
 * the clock it is given: a {@link ManualClock} the tests move.
 */
public abstract class QuarantineLedgerContract {

    protected final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T12:00:00Z"));
    protected QuarantineLedger ledger;
    protected LeaseStore leases;
    protected String queue;

    /** A ledger over the subclass's store, fenced by {@link #leases()}, reading time from {@code clock}. */
    protected abstract QuarantineLedger ledger(Clock clock);

    protected abstract LeaseStore leases();

    @BeforeEach
    void setUp() {
        leases = leases();
        ledger = ledger(clock);
        queue = "orders-" + UUID.randomUUID().toString().substring(0, 8);
    }

    protected QuarantineRecord record(String id, Instant arrivedAt) {
        return new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin("email", queue, queue + "-dlq", "m-" + id, "email#k-" + id, arrivedAt),
                new DeadLetterEvidence(
                        new Classification(FailureClass.TRANSIENT, "Timeout", "slow \"quoted\" reason", "payments"),
                        arrivedAt.minusSeconds(60),
                        arrivedAt.minusSeconds(30),
                        3),
                new PayloadLocation.Inline("{\"orderId\":\"o-1\"}"),
                Map.of("trace", MessageAttribute.ofString("t-1")),
                0,
                "arrived",
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, arrivedAt, Actor.AUTOMATION, "arrived")),
                0);
    }

    protected static String id() {
        return "q-" + UUID.randomUUID();
    }

    @Test
    void aRecordRoundTripsIntact() {
        Instant now = clock.instant();
        QuarantineRecord r = record(id(), now);
        assertThat(ledger.insertIfAbsent(r, Optional.empty())).isTrue();

        QuarantineRecord stored = ledger.find(r.id()).orElseThrow();

        assertThat(stored).isEqualTo(r.withVersion(1));
    }

    @Test
    void anAuditEntryThatChangesNoStateKeepsItsActionThroughSaves() {
        Instant now = clock.instant();
        QuarantineRecord r = record(id(), now);
        assertThat(ledger.insertIfAbsent(r, Optional.empty())).isTrue();
        QuarantineRecord revealed = ledger.find(r.id())
                .orElseThrow()
                .revealed(Actor.person("ada"), "revealed the payload's sensitive fields: $.card", now.plusSeconds(5));

        QuarantineRecord saved = ledger.save(revealed, Optional.empty()).orElseThrow();
        QuarantineRecord moved = ledger.save(
                        saved.moveTo(QuarantineState.UNDER_REVIEW, Actor.person("bo"), "look", now.plusSeconds(9)),
                        Optional.empty())
                .orElseThrow();

        QuarantineRecord stored = ledger.find(r.id()).orElseThrow();
        assertThat(stored).isEqualTo(moved);
        assertThat(stored.audit())
                .extracting(AuditEntry::action)
                .containsExactly(
                        AuditEntry.Action.TRANSITION, AuditEntry.Action.PAYLOAD_REVEALED, AuditEntry.Action.TRANSITION);
        assertThat(stored.audit().get(1))
                .isEqualTo(new AuditEntry(
                        QuarantineState.QUARANTINED,
                        QuarantineState.QUARANTINED,
                        now.plusSeconds(5),
                        Actor.person("ada"),
                        "revealed the payload's sensitive fields: $.card",
                        AuditEntry.Action.PAYLOAD_REVEALED));
    }

    /** The original's attributes, each with its type, so a replay is the original. */
    static Map<String, MessageAttribute> everyType() {
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>(Attributes.everyType());
        attributes.put("empty", new MessageAttribute("Binary", null, new byte[0]));
        return attributes;
    }

    @Test
    void everyAttributeKeepsItsTypeWhenInsertedAloneInABatchAndSaved() {
        Instant now = clock.instant();
        QuarantineRecord alone = record(id(), now).withAttributes(everyType());
        QuarantineRecord batched = record(id(), now).withAttributes(everyType());
        assertThat(ledger.insertIfAbsent(alone, Optional.empty())).isTrue();
        assertThat(ledger.insertAllIfAbsent(List.of(batched), Optional.empty())).containsExactly(batched.id());

        QuarantineRecord saved = ledger.save(
                        ledger.find(alone.id())
                                .orElseThrow()
                                .moveTo(QuarantineState.UNDER_REVIEW, Actor.AUTOMATION, "look", now),
                        Optional.empty())
                .orElseThrow();

        assertThat(ledger.find(alone.id()).orElseThrow().attributes()).isEqualTo(everyType());
        assertThat(ledger.find(batched.id()).orElseThrow().attributes()).isEqualTo(everyType());
        assertThat(saved.attributes()).isEqualTo(everyType());
        assertThat(ledger.find(alone.id()).orElseThrow().stringAttributes())
                .isEqualTo(Map.of("trace", "t-1", "price", "12.50", "ratio", "0.25"));
    }

    @Test
    void anEmptyPayloadStaysAnEmptyInlinePayload() {
        QuarantineRecord r = record(id(), clock.instant()).withBody("");
        assertThat(ledger.insertIfAbsent(r, Optional.empty())).isTrue();

        QuarantineRecord stored = ledger.find(r.id()).orElseThrow();

        assertThat(stored.payload()).isEqualTo(new PayloadLocation.Inline(""));
        assertThat(stored).isEqualTo(r.withVersion(1));
    }

    @Test
    void theSameDeadLetterIsInsertedOnce() {
        QuarantineRecord r = record(id(), clock.instant());
        assertThat(ledger.insertIfAbsent(r, Optional.empty())).isTrue();
        assertThat(ledger.insertIfAbsent(r.withBody("changed"), Optional.empty()))
                .isFalse();
        assertThat(ledger.find(r.id()).orElseThrow().body()).isEqualTo("{\"orderId\":\"o-1\"}");
    }

    @Test
    void aSaveFromAStaleVersionIsRejected() {
        QuarantineRecord r = record(id(), clock.instant());
        ledger.insertIfAbsent(r, Optional.empty());
        QuarantineRecord read = ledger.find(r.id()).orElseThrow();
        QuarantineRecord moved =
                read.moveTo(QuarantineState.UNDER_REVIEW, Actor.person("ada"), "look", clock.instant());

        Optional<QuarantineRecord> saved = ledger.save(moved, Optional.empty());
        Optional<QuarantineRecord> stale = ledger.save(
                read.moveTo(QuarantineState.ARCHIVED, Actor.person("bo"), "junk", clock.instant()), Optional.empty());

        assertThat(saved).map(QuarantineRecord::version).contains(2L);
        assertThat(stale).isEmpty();
        QuarantineRecord stored = ledger.find(r.id()).orElseThrow();
        assertThat(stored.state()).isEqualTo(QuarantineState.UNDER_REVIEW);
        assertThat(stored.audit()).hasSize(2);
        assertThat(stored.audit().get(1).actor()).isEqualTo(Actor.person("ada"));
    }

    @Test
    void writesUnderALeaseAreRejectedOnceTheLeaseIsTakenOver() {
        String leaseName = "sweeper#" + queue;
        Instant now = clock.instant();
        Lease mine =
                leases.acquire(leaseName, "me", Duration.ofMillis(300), now).orElseThrow();
        QuarantineRecord a = record(id(), now);
        assertThat(ledger.insertIfAbsent(a, Optional.of(mine.fence()))).isTrue();

        // My lease lapses; another sweeper takes it over.
        clock.advance(Duration.ofSeconds(1));
        Instant later = clock.instant();
        Lease theirs =
                leases.acquire(leaseName, "them", Duration.ofMinutes(5), later).orElseThrow();
        QuarantineRecord b = record(id(), later);

        assertThat(ledger.insertIfAbsent(b, Optional.of(mine.fence()))).isFalse();
        assertThat(ledger.find(b.id())).isEmpty();
        QuarantineRecord stored = ledger.find(a.id()).orElseThrow();
        assertThat(ledger.save(
                        stored.moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, "late", later),
                        Optional.of(mine.fence())))
                .isEmpty();
        assertThat(ledger.save(
                        stored.moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, "on time", later),
                        Optional.of(theirs.fence())))
                .isPresent();
    }

    @Test
    void aTombstoneLeavesTheActiveStatesButIsStillFoundById() {
        QuarantineRecord r = record(id(), clock.instant().minus(Duration.ofDays(9)));
        ledger.insertIfAbsent(r, Optional.empty());
        QuarantineRecord archived = ledger.save(
                        ledger.find(r.id())
                                .orElseThrow()
                                .moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, "expired", clock.instant()),
                        Optional.empty())
                .orElseThrow();
        assertThat(ledger.inState(QuarantineState.ARCHIVED, Optional.of(queue), 10))
                .hasSize(1);

        ledger.save(archived.tombstone("archive/queue=q/date=d/1.jsonl.gz"), Optional.empty())
                .orElseThrow();

        assertThat(ledger.inState(QuarantineState.ARCHIVED, Optional.of(queue), 10))
                .isEmpty();
        assertThat(ledger.arrivedBefore(QuarantineState.ARCHIVED, clock.instant(), 10))
                .noneMatch(x -> x.id().equals(r.id()));
        QuarantineRecord tombstone = ledger.find(r.id()).orElseThrow();
        assertThat(tombstone.state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(tombstone.archiveRef()).isEqualTo("archive/queue=q/date=d/1.jsonl.gz");
        assertThat(tombstone.body()).isNull();
    }

    @Test
    void unchangedSinceCountsFromTheLastStateChangeNotFromArrival() {
        Instant arrived = clock.instant().minus(Duration.ofDays(10));
        QuarantineRecord untouched = record(id(), arrived);
        QuarantineRecord touched = record(id(), arrived.plusSeconds(1));
        ledger.insertIfAbsent(untouched, Optional.empty());
        ledger.insertIfAbsent(touched, Optional.empty());
        Instant reviewed = clock.instant().minus(Duration.ofDays(1));
        QuarantineRecord moved = ledger.find(touched.id())
                .orElseThrow()
                .moveTo(QuarantineState.UNDER_REVIEW, Actor.person("ada"), "looking", reviewed)
                .moveTo(QuarantineState.QUARANTINED, Actor.person("ada"), "given back", reviewed);
        ledger.save(moved, Optional.empty()).orElseThrow();
        Instant cutoff = clock.instant().minus(Duration.ofDays(7));

        assertThat(ledger.unchangedSince(QuarantineState.QUARANTINED, cutoff, 100))
                .extracting(QuarantineRecord::id)
                .contains(untouched.id())
                .doesNotContain(touched.id());
        assertThat(ledger.unchangedSince(QuarantineState.QUARANTINED, clock.instant(), 100))
                .extracting(QuarantineRecord::id)
                .containsSubsequence(untouched.id(), touched.id());
        assertThat(ledger.arrivedBefore(QuarantineState.QUARANTINED, cutoff, 100))
                .extracting(QuarantineRecord::id)
                .contains(untouched.id(), touched.id());
    }

    @Test
    void aTombstoneSavedWithItsPayloadBackIsActiveAndListedAgain() {
        QuarantineRecord r = record(id(), clock.instant());
        ledger.insertIfAbsent(r, Optional.empty());
        QuarantineRecord replayed = ledger.save(
                        ledger.find(r.id())
                                .orElseThrow()
                                .moveTo(QuarantineState.UNDER_REVIEW, Actor.AUTOMATION, "r", clock.instant())
                                .moveTo(QuarantineState.SCHEMA_CHECK, Actor.AUTOMATION, "s", clock.instant())
                                .moveTo(QuarantineState.IDEMPOTENCY_CHECK, Actor.AUTOMATION, "i", clock.instant())
                                .moveTo(QuarantineState.REPLAYED, Actor.AUTOMATION, "sent", clock.instant()),
                        Optional.empty())
                .orElseThrow();
        QuarantineRecord tombstone = ledger.save(replayed.tombstone("archive/1.jsonl.gz"), Optional.empty())
                .orElseThrow();

        ledger.save(
                        tombstone
                                .withPayload(new PayloadLocation.Inline("{\"orderId\":\"o-1\"}"))
                                .withAttributes(Map.of("trace", MessageAttribute.ofString("t-2")))
                                .moveTo(QuarantineState.QUARANTINED, Actor.AUTOMATION, "returned", clock.instant()),
                        Optional.empty())
                .orElseThrow();

        QuarantineRecord reopened = ledger.find(r.id()).orElseThrow();
        assertThat(reopened.archivedToStore()).isFalse();
        assertThat(reopened.archiveRef()).isNull();
        assertThat(reopened.body()).isEqualTo("{\"orderId\":\"o-1\"}");
        assertThat(reopened.stringAttributes()).containsEntry("trace", "t-2");
        assertThat(ledger.inState(QuarantineState.QUARANTINED, Optional.of(queue), 10))
                .extracting(QuarantineRecord::id)
                .containsExactly(r.id());
        assertThat(ledger.count(QuarantineState.QUARANTINED, queue)).isEqualTo(1);
        assertThat(ledger.count(QuarantineState.REPLAYED, queue)).isZero();
    }

    @Test
    void recordsAreListedByStateOldestFirstAndByQueue() {
        Instant t = clock.instant().minus(Duration.ofHours(3));
        QuarantineRecord older = record(id(), t);
        QuarantineRecord newer = record(id(), t.plusSeconds(60));
        QuarantineRecord elsewhere = new QuarantineRecord(
                id(),
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin("email", "other-queue", "other-dlq", "m", null, t.plusSeconds(30)),
                new DeadLetterEvidence(older.classification(), null, null, 1),
                new PayloadLocation.Inline("b"),
                Map.of(),
                0,
                "",
                List.of(),
                0);
        ledger.insertIfAbsent(newer, Optional.empty());
        ledger.insertIfAbsent(older, Optional.empty());
        ledger.insertIfAbsent(elsewhere, Optional.empty());

        List<QuarantineRecord> mine = ledger.inState(QuarantineState.QUARANTINED, Optional.of(queue), 10);
        List<QuarantineRecord> before = ledger.arrivedBefore(QuarantineState.QUARANTINED, t.plusSeconds(45), 100);

        assertThat(mine).extracting(QuarantineRecord::id).containsExactly(older.id(), newer.id());
        assertThat(before)
                .extracting(QuarantineRecord::id)
                .contains(older.id(), elsewhere.id())
                .doesNotContain(newer.id());
        assertThat(ledger.inState(QuarantineState.REPLAYED, Optional.of(queue), 10))
                .isEmpty();
    }

    @Test
    void ofQueueListsEveryStateOfOneQueueOldestFirstTombstonesIncluded() {
        Instant t = clock.instant().minus(Duration.ofHours(3));
        QuarantineRecord waiting = record(id(), t.plusSeconds(20));
        QuarantineRecord tombstoned = record(id(), t);
        QuarantineRecord replayed = record(id(), t.plusSeconds(10));
        ledger.insertIfAbsent(waiting, Optional.empty());
        ledger.insertIfAbsent(tombstoned, Optional.empty());
        ledger.insertIfAbsent(replayed, Optional.empty());
        ledger.insertIfAbsent(recordOf("other-" + queue, id(), t), Optional.empty());
        QuarantineRecord archived = ledger.save(
                        ledger.find(tombstoned.id())
                                .orElseThrow()
                                .moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, "expired", t),
                        Optional.empty())
                .orElseThrow();
        ledger.save(archived.tombstone("archive/1.jsonl.gz"), Optional.empty()).orElseThrow();
        QuarantineRecord review = ledger.find(replayed.id())
                .orElseThrow()
                .moveTo(QuarantineState.UNDER_REVIEW, Actor.person("ada"), "look", t);
        ledger.save(review, Optional.empty()).orElseThrow();

        List<QuarantineRecord> all = ledger.ofQueue(queue, 10);

        assertThat(all).extracting(QuarantineRecord::id).containsExactly(tombstoned.id(), replayed.id(), waiting.id());
        assertThat(all)
                .extracting(QuarantineRecord::state)
                .containsExactly(QuarantineState.ARCHIVED, QuarantineState.UNDER_REVIEW, QuarantineState.QUARANTINED);
        assertThat(all.get(0).archivedToStore()).isTrue();
        assertThat(ledger.ofQueue(queue, 2))
                .extracting(QuarantineRecord::id)
                .containsExactly(tombstoned.id(), replayed.id());
        assertThat(ledger.ofQueue("no-such-" + queue, 10)).isEmpty();
    }

    @Test
    void countCountsTheActiveRecordsOfOneQueueInOneState() {
        Instant t = clock.instant().minus(Duration.ofHours(1));
        for (int i = 0; i < 3; i++) {
            ledger.insertIfAbsent(record(id(), t.plusSeconds(i)), Optional.empty());
        }
        ledger.insertIfAbsent(recordOf("other-" + queue, id(), t), Optional.empty());
        QuarantineRecord gone = record(id(), t);
        ledger.insertIfAbsent(gone, Optional.empty());
        QuarantineRecord archived = ledger.save(
                        ledger.find(gone.id())
                                .orElseThrow()
                                .moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, "expired", t),
                        Optional.empty())
                .orElseThrow();

        assertThat(ledger.count(QuarantineState.QUARANTINED, queue)).isEqualTo(3);
        assertThat(ledger.count(QuarantineState.ARCHIVED, queue)).isEqualTo(1);

        ledger.save(archived.tombstone("archive/2.jsonl.gz"), Optional.empty()).orElseThrow();

        assertThat(ledger.count(QuarantineState.ARCHIVED, queue))
                .as("a tombstone is not active")
                .isZero();
        assertThat(ledger.count(QuarantineState.REPLAYED, queue)).isZero();
        assertThat(ledger.count(QuarantineState.QUARANTINED, "other-" + queue)).isEqualTo(1);
    }

    @Test
    void countByStateCountsEveryRecordOfOneQueueByStateTombstonesIncluded() {
        Instant t = clock.instant().minus(Duration.ofHours(2));
        List<QuarantineRecord> mine = List.of(
                record(id(), t),
                record(id(), t.plusSeconds(1)),
                inState(record(id(), t.plusSeconds(2)), QuarantineState.UNDER_REVIEW),
                inState(record(id(), t.plusSeconds(3)), QuarantineState.REPLAYED),
                inState(record(id(), t.plusSeconds(4)), QuarantineState.REPLAYED)
                        .tombstone("archive/5.jsonl.gz"),
                inState(record(id(), t.plusSeconds(5)), QuarantineState.ARCHIVED)
                        .tombstone("archive/5.jsonl.gz"));
        mine.forEach(r -> assertThat(ledger.insertIfAbsent(r, Optional.empty())).isTrue());
        ledger.insertIfAbsent(recordOf("other-" + queue, id(), t), Optional.empty());

        assertThat(ledger.countByState(queue))
                .isEqualTo(Map.of(
                        QuarantineState.QUARANTINED, 2L,
                        QuarantineState.UNDER_REVIEW, 1L,
                        QuarantineState.REPLAYED, 2L,
                        QuarantineState.ARCHIVED, 1L));
        assertThat(ledger.countByState("other-" + queue)).isEqualTo(Map.of(QuarantineState.QUARANTINED, 1L));
        assertThat(ledger.countByState("no-such-" + queue)).isEmpty();
    }

    @Test
    void ofQueueSinceListsTheQueueFromAnArrivalIncludedOldestFirstTombstonesIncluded() {
        Instant from = clock.instant().minus(Duration.ofHours(24));
        QuarantineRecord before = record(id(), from.minusMillis(1));
        QuarantineRecord at = record(id(), from);
        QuarantineRecord tombstone = inState(record(id(), from.plusSeconds(10)), QuarantineState.ARCHIVED)
                .tombstone("archive/6.jsonl.gz");
        QuarantineRecord latest = inState(record(id(), from.plusSeconds(20)), QuarantineState.SCHEMA_CHECK);
        for (QuarantineRecord r : List.of(latest, before, tombstone, at)) {
            ledger.insertIfAbsent(r, Optional.empty());
        }
        ledger.insertIfAbsent(recordOf("other-" + queue, id(), from.plusSeconds(5)), Optional.empty());

        List<QuarantineRecord> since = ledger.ofQueueSince(queue, from, 10);

        assertThat(since).extracting(QuarantineRecord::id).containsExactly(at.id(), tombstone.id(), latest.id());
        assertThat(since.get(1).archivedToStore()).isTrue();
        assertThat(since.get(2).state()).isEqualTo(QuarantineState.SCHEMA_CHECK);
        assertThat(ledger.ofQueueSince(queue, from, 2))
                .extracting(QuarantineRecord::id)
                .containsExactly(at.id(), tombstone.id());
        assertThat(ledger.ofQueueSince(queue, from.plusSeconds(21), 10)).isEmpty();
    }

    @Test
    void lastOfQueueBeforeReadsBackFromAnInstantPastThoseThatDoNotMatch() {
        Instant before = clock.instant().minus(Duration.ofHours(24));
        QuarantineRecord matching = inState(record(id(), before.minusSeconds(300)), QuarantineState.ARCHIVED)
                .tombstone("archive/8.jsonl.gz");
        List<QuarantineRecord> newerNotMatching = new java.util.ArrayList<>();
        for (int i = 0; i < 120; i++) {
            // not QUARANTINED: other tests list the oldest waiting records of the shared table with a limit
            newerNotMatching.add(inState(record(id(), before.minusSeconds(200 - i)), QuarantineState.REPLAYED));
        }
        ledger.insertIfAbsent(record(id(), before.minusSeconds(900)), Optional.empty());
        ledger.insertIfAbsent(matching, Optional.empty());
        assertThat(ledger.insertAllIfAbsent(newerNotMatching, Optional.empty())).hasSize(120);
        ledger.insertIfAbsent(inState(record(id(), before), QuarantineState.ARCHIVED), Optional.empty());
        ledger.insertIfAbsent(
                inState(recordOf("other-" + queue, id(), before.minusSeconds(1)), QuarantineState.ARCHIVED),
                Optional.empty());

        assertThat(ledger.lastOfQueueBefore(queue, before, r -> r.state() == QuarantineState.ARCHIVED))
                .map(QuarantineRecord::id)
                .contains(matching.id());
        assertThat(ledger.lastOfQueueBefore(queue, before, r -> true))
                .map(QuarantineRecord::arrivedAt)
                .contains(before.minusSeconds(81));
        assertThat(ledger.lastOfQueueBefore(queue, before.minusSeconds(900), r -> true))
                .isEmpty();
    }

    @Test
    void inStateOfOneQueueWithALimitOfOneFindsItsOldestPastOlderRecordsOfOtherQueues() {
        Instant t = clock.instant().minus(Duration.ofDays(2));
        // more than a page of older records of another queue in the same state come first on the state's index
        List<QuarantineRecord> elsewhere = new java.util.ArrayList<>();
        for (int i = 0; i < 120; i++) {
            elsewhere.add(inState(recordOf("other-" + queue, id(), t.plusSeconds(i)), QuarantineState.UNDER_REVIEW));
        }
        assertThat(ledger.insertAllIfAbsent(elsewhere, Optional.empty())).hasSize(120);
        assertThat(ledger.inState(QuarantineState.UNDER_REVIEW, Optional.of(queue), 1))
                .isEmpty();
        QuarantineRecord newer = inState(record(id(), t.plusSeconds(300)), QuarantineState.UNDER_REVIEW);
        QuarantineRecord older = inState(record(id(), t.plusSeconds(200)), QuarantineState.UNDER_REVIEW);
        ledger.insertIfAbsent(newer, Optional.empty());
        ledger.insertIfAbsent(older, Optional.empty());

        assertThat(ledger.inState(QuarantineState.UNDER_REVIEW, Optional.of(queue), 1))
                .extracting(QuarantineRecord::id)
                .containsExactly(older.id());
    }

    /** {@code r} as if it had been moved to {@code state} (the ledger stores what it is given). */
    protected static QuarantineRecord inState(QuarantineRecord r, QuarantineState state) {
        return new QuarantineRecord(
                r.id(),
                state,
                r.origin(),
                r.evidence(),
                r.payload(),
                r.attributes(),
                r.replayCount(),
                r.note(),
                r.audit(),
                r.version());
    }

    @Test
    void aFencedWriteWithALowerTokenThanTheRecordHasSeenIsRefusedWhateverItsOwnClockSays() {
        String leaseName = "sweeper#" + queue;
        Lease old = leases.acquire(leaseName, "old", Duration.ofMillis(300), clock.instant())
                .orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        Lease next = leases.acquire(leaseName, "next", Duration.ofMinutes(5), clock.instant())
                .orElseThrow();
        QuarantineRecord r = record(id(), clock.instant());
        assertThat(ledger.insertIfAbsent(r, Optional.of(next.fence()))).isTrue();
        QuarantineRecord stored = ledger.find(r.id()).orElseThrow();
        // The old holder, on a clock that lags: by its own reckoning its lease has not lapsed yet.
        LeaseToken lagging =
                new LeaseToken(leaseName, old.token(), clock.instant().plus(Duration.ofMinutes(1)));

        Optional<QuarantineRecord> late = ledger.save(
                stored.moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, "late", clock.instant()),
                Optional.of(lagging));
        Map<String, QuarantineRecord> lateBatch = ledger.saveAll(
                List.of(stored.moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, "late", clock.instant())),
                Optional.of(lagging));

        assertThat(late).isEmpty();
        assertThat(lateBatch).isEmpty();
        assertThat(ledger.find(r.id()).orElseThrow()).isEqualTo(stored);
        assertThat(ledger.save(
                        stored.moveTo(QuarantineState.UNDER_REVIEW, Actor.AUTOMATION, "on time", clock.instant()),
                        Optional.of(next.fence())))
                .map(QuarantineRecord::version)
                .contains(2L);
    }

    /**
     * A person's write (archive, replay: no fence of its own) must not drop the fence a sweeper left on the record: a
     * token the record had refused before stays refused after it, whether the person's save went alone, in a batch, or
     * left a tombstone.
     */
    @Test
    void aPersonsSaveKeepsTheFenceSoATokenTheRecordRefusedStaysRefused() {
        String leaseName = "sweeper#" + queue;
        Lease old = leases.acquire(leaseName, "old", Duration.ofMillis(300), clock.instant())
                .orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        Lease next = leases.acquire(leaseName, "next", Duration.ofMinutes(5), clock.instant())
                .orElseThrow();
        LeaseToken lagging =
                new LeaseToken(leaseName, old.token(), clock.instant().plus(Duration.ofMinutes(1)));
        QuarantineRecord alone = record(id(), clock.instant());
        QuarantineRecord batched = record(id(), clock.instant());
        QuarantineRecord archived = record(id(), clock.instant());
        assertThat(ledger.insertAllIfAbsent(List.of(alone, batched, archived), Optional.of(next.fence())))
                .hasSize(3);
        Actor ada = Actor.person("ada");
        ledger.save(
                        ledger.find(alone.id()).orElseThrow().moveTo(QuarantineState.UNDER_REVIEW, ada, "look", now()),
                        Optional.empty())
                .orElseThrow();
        assertThat(ledger.saveAll(
                        List.of(ledger.find(batched.id())
                                .orElseThrow()
                                .moveTo(QuarantineState.UNDER_REVIEW, ada, "look", now())),
                        Optional.empty()))
                .hasSize(1);
        QuarantineRecord gone = ledger.save(
                        ledger.find(archived.id()).orElseThrow().moveTo(QuarantineState.ARCHIVED, ada, "junk", now()),
                        Optional.empty())
                .orElseThrow();
        ledger.save(gone.tombstone("archive/3.jsonl.gz"), Optional.empty()).orElseThrow();

        for (QuarantineRecord r : List.of(alone, batched, archived)) {
            QuarantineRecord stored = ledger.find(r.id()).orElseThrow();
            // A sweeper's write that needs no transition (a tombstone allows none): it counts a replay returned.
            QuarantineRecord late = stored.withReplayCount(stored.replayCount() + 1);
            assertThat(ledger.save(late, Optional.of(lagging)))
                    .as(
                            "a save under token %d after a person's save of a record written under %d",
                            old.token(), next.token())
                    .isEmpty();
            assertThat(ledger.saveAll(List.of(late), Optional.of(lagging)))
                    .as(
                            "a batched save under token %d after a person's save of a record written under %d",
                            old.token(), next.token())
                    .isEmpty();
            assertThat(ledger.find(r.id()).orElseThrow()).isEqualTo(stored);
        }
        QuarantineRecord stored = ledger.find(alone.id()).orElseThrow();
        assertThat(ledger.save(
                        stored.moveTo(QuarantineState.SCHEMA_CHECK, Actor.AUTOMATION, "on time", now()),
                        Optional.of(next.fence())))
                .as("the token the record was written under still writes it")
                .map(QuarantineRecord::version)
                .contains(stored.version() + 1);
    }

    private Instant now() {
        return clock.instant();
    }

    @Test
    void aFencedWriteWithAnEqualOrHigherTokenIsAccepted() {
        String leaseName = "sweeper#" + queue;
        Lease first = leases.acquire(leaseName, "first", Duration.ofMillis(300), clock.instant())
                .orElseThrow();
        QuarantineRecord r = record(id(), clock.instant());
        assertThat(ledger.insertIfAbsent(r, Optional.of(first.fence()))).isTrue();
        QuarantineRecord v1 = ledger.find(r.id()).orElseThrow();
        QuarantineRecord v2 = ledger.save(
                        v1.moveTo(QuarantineState.UNDER_REVIEW, Actor.AUTOMATION, "same token", clock.instant()),
                        Optional.of(first.fence()))
                .orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        Lease second = leases.acquire(leaseName, "second", Duration.ofMinutes(5), clock.instant())
                .orElseThrow();

        assertThat(ledger.save(
                        v2.moveTo(QuarantineState.SCHEMA_CHECK, Actor.AUTOMATION, "higher token", clock.instant()),
                        Optional.of(second.fence())))
                .map(QuarantineRecord::version)
                .contains(3L);
    }

    @Test
    void aBatchedInsertWritesEachNewRecordOnItsOwnCondition() {
        Lease mine = leases.acquire("sweeper#" + queue, "me", Duration.ofMinutes(5), clock.instant())
                .orElseThrow();
        List<QuarantineRecord> batch = new java.util.ArrayList<>();
        for (int i = 0; i < 23; i++) {
            batch.add(record(id(), clock.instant().plusMillis(i)));
        }
        QuarantineRecord there = batch.get(11);
        assertThat(ledger.insertIfAbsent(there.withBody("first"), Optional.empty()))
                .isTrue();

        java.util.Set<String> written = ledger.insertAllIfAbsent(batch, Optional.of(mine.fence()));

        assertThat(written).hasSize(22).doesNotContain(there.id());
        assertThat(ledger.find(there.id()).orElseThrow().body()).isEqualTo("first");
        assertThat(ledger.findAll(batch.stream().map(QuarantineRecord::id).toList()))
                .hasSize(23)
                .allSatisfy((id, r) -> assertThat(r.version()).isEqualTo(1));
    }

    @Test
    void aBatchedSaveRefusesOnlyTheRecordsWhoseVersionOrFenceDidNotHold() {
        String leaseName = "sweeper#" + queue;
        Lease mine = leases.acquire(leaseName, "me", Duration.ofMinutes(5), clock.instant())
                .orElseThrow();
        List<QuarantineRecord> stored = new java.util.ArrayList<>();
        for (int i = 0; i < 14; i++) {
            QuarantineRecord r = record(id(), clock.instant().plusMillis(i));
            ledger.insertIfAbsent(r, Optional.of(mine.fence()));
            stored.add(ledger.find(r.id()).orElseThrow());
        }
        // Record 3 changed meanwhile (a person); record 12 was written by a newer token.
        ledger.save(
                        stored.get(3).moveTo(QuarantineState.ARCHIVED, Actor.person("ada"), "junk", clock.instant()),
                        Optional.empty())
                .orElseThrow();
        ledger.save(
                        stored.get(12).moveTo(QuarantineState.UNDER_REVIEW, Actor.AUTOMATION, "newer", clock.instant()),
                        Optional.of(new LeaseToken(leaseName, mine.token() + 1, mine.expiresAt())))
                .orElseThrow();
        QuarantineRecord twelve = ledger.find(stored.get(12).id()).orElseThrow();
        List<QuarantineRecord> moved = new java.util.ArrayList<>();
        for (int i = 0; i < stored.size(); i++) {
            QuarantineRecord base = i == 12 ? twelve : stored.get(i);
            moved.add(base.moveTo(
                    i == 12 ? QuarantineState.SCHEMA_CHECK : QuarantineState.UNDER_REVIEW,
                    Actor.AUTOMATION,
                    "batch",
                    clock.instant()));
        }

        Map<String, QuarantineRecord> saved = ledger.saveAll(moved, Optional.of(mine.fence()));

        assertThat(saved)
                .hasSize(12)
                .doesNotContainKeys(stored.get(3).id(), stored.get(12).id());
        assertThat(saved.values()).allSatisfy(r -> assertThat(r.version()).isEqualTo(2));
        Map<String, QuarantineRecord> now =
                ledger.findAll(stored.stream().map(QuarantineRecord::id).toList());
        assertThat(now.get(stored.get(3).id()).state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(now.get(stored.get(12).id())).isEqualTo(twelve);
        assertThat(now.get(stored.get(0).id()))
                .isEqualTo(saved.get(stored.get(0).id()));
    }

    @Test
    void aBatchUnderALapsedTokenWritesNothing() {
        Lease mine = leases.acquire("sweeper#" + queue, "me", Duration.ofMillis(300), clock.instant())
                .orElseThrow();
        QuarantineRecord r = record(id(), clock.instant());
        clock.advance(Duration.ofSeconds(1));

        assertThat(ledger.insertAllIfAbsent(List.of(r), Optional.of(mine.fence())))
                .isEmpty();
        assertThat(ledger.find(r.id())).isEmpty();
    }

    @Test
    void findAllReadsMoreThanAHundredRecordsInTheOrderAskedAndLeavesOutTheMissing() {
        List<QuarantineRecord> records = new java.util.ArrayList<>();
        for (int i = 0; i < 130; i++) {
            records.add(record(id(), clock.instant().plusMillis(i)));
        }
        assertThat(ledger.insertAllIfAbsent(records, Optional.empty())).hasSize(130);
        List<String> asked = new java.util.ArrayList<>();
        asked.add("q-missing");
        for (int i = records.size() - 1; i >= 0; i--) {
            asked.add(records.get(i).id());
        }

        Map<String, QuarantineRecord> found = ledger.findAll(asked);

        assertThat(found.keySet()).containsExactlyElementsOf(asked.subList(1, asked.size()));
        assertThat(found.get(records.get(7).id())).isEqualTo(records.get(7).withVersion(1));
    }

    /**
     * The counts are kept with each write, so after any mix of inserts, batches, moves, tombstones and refused writes by
     * several writers at once they equal a recount of the records, for every state, active and tombstones alike.
     */
    @Test
    void theCountsEqualARecountAfterConcurrentWritesOfEveryKind() throws Exception {
        Instant t = clock.instant().minus(Duration.ofHours(1));
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(id());
        }
        int writers = 4;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
        java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        try {
            List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int w = 0; w < writers; w++) {
                long seed = 40L + w;
                done.add(pool.submit(() -> {
                    java.util.Random random = new java.util.Random(seed);
                    for (int op = 0; op < 25; op++) {
                        String id = ids.get(random.nextInt(ids.size()));
                        int kind = random.nextInt(5);
                        boolean ok;
                        if (kind == 0) {
                            ok = ledger.insertIfAbsent(record(id, t.plusSeconds(op)), Optional.empty());
                        } else if (kind == 1) {
                            List<QuarantineRecord> batch = new java.util.ArrayList<>();
                            for (String other : new java.util.LinkedHashSet<>(List.of(
                                    ids.get(random.nextInt(ids.size())), ids.get(random.nextInt(ids.size()))))) {
                                batch.add(record(other, t.plusSeconds(op)));
                            }
                            ok = !ledger.insertAllIfAbsent(batch, Optional.empty())
                                    .isEmpty();
                        } else {
                            Optional<QuarantineRecord> read = ledger.find(id);
                            if (read.isEmpty()) {
                                continue;
                            }
                            QuarantineRecord r = read.get();
                            QuarantineRecord changed;
                            if (kind == 2 && !r.archivedToStore()) {
                                changed = r.tombstone("archive/" + id + ".jsonl.gz");
                            } else if (kind == 3 && r.archivedToStore()) {
                                changed = r.withBody("{\"back\":true}"); // a returned replay makes it active again
                            } else {
                                List<QuarantineState> next =
                                        r.state().next().stream().sorted().toList();
                                if (next.isEmpty()) {
                                    continue;
                                }
                                changed = r.moveTo(
                                        next.get(random.nextInt(next.size())),
                                        Actor.AUTOMATION,
                                        "mix",
                                        clock.instant());
                            }
                            ok = random.nextBoolean()
                                    ? ledger.save(changed, Optional.empty()).isPresent()
                                    : !ledger.saveAll(List.of(changed), Optional.empty())
                                            .isEmpty();
                        }
                        (ok ? accepted : refused).incrementAndGet();
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get(2, java.util.concurrent.TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(accepted.get()).as("writes that held").isPositive();
        assertThat(refused.get())
                .as("writes refused (a record there already, a stale version)")
                .isPositive();
        assertCountsAreARecount(queue);
    }

    /** A write refused by its fence, alone or in a batch, changes no count. */
    @Test
    void aFencedOutWriteChangesNoCount() {
        String leaseName = "sweeper#" + queue;
        Lease old = leases.acquire(leaseName, "old", Duration.ofMillis(300), clock.instant())
                .orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        Lease next = leases.acquire(leaseName, "next", Duration.ofMinutes(5), clock.instant())
                .orElseThrow();
        QuarantineRecord r = record(id(), clock.instant());
        assertThat(ledger.insertIfAbsent(r, Optional.of(next.fence()))).isTrue();
        QuarantineRecord stored = ledger.find(r.id()).orElseThrow();
        LeaseToken lagging =
                new LeaseToken(leaseName, old.token(), clock.instant().plus(Duration.ofMinutes(1)));
        Map<QuarantineState, Long> before = ledger.countByState(queue);

        assertThat(ledger.save(
                        stored.moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, "late", clock.instant()),
                        Optional.of(lagging)))
                .isEmpty();
        assertThat(ledger.saveAll(List.of(stored.tombstone("archive/late.jsonl.gz")), Optional.of(lagging)))
                .isEmpty();
        assertThat(ledger.insertAllIfAbsent(
                        List.of(record(id(), clock.instant()), record(id(), clock.instant())),
                        Optional.of(old.fence())))
                .as("a lapsed token writes nothing")
                .isEmpty();

        assertThat(before).isEqualTo(Map.of(QuarantineState.QUARANTINED, 1L));
        assertThat(ledger.countByState(queue)).isEqualTo(before);
        assertThat(ledger.countActiveByState(queue)).isEqualTo(before);
        assertCountsAreARecount(queue);
    }

    @Test
    void oldestActiveIsTheFirstArrivalOfTheQueueInTheState() {
        Instant t = clock.instant().minus(Duration.ofHours(3));
        ledger.insertIfAbsent(recordOf("other-" + queue, id(), t), Optional.empty());
        QuarantineRecord first = record(id(), t.plusSeconds(1));
        ledger.insertIfAbsent(first, Optional.empty());
        ledger.insertIfAbsent(record(id(), t.plusSeconds(2)), Optional.empty());
        ledger.insertIfAbsent(inState(record(id(), t), QuarantineState.UNDER_REVIEW), Optional.empty());

        assertThat(ledger.oldestActive(QuarantineState.QUARANTINED, queue))
                .map(QuarantineRecord::id)
                .contains(first.id());
        assertThat(ledger.oldestActive(QuarantineState.REPLAYED, queue)).isEmpty();
    }

    /** The ledger's counts of {@code sourceQueue} are those of its records, counted one by one. */
    protected void assertCountsAreARecount(String sourceQueue) {
        Map<QuarantineState, Long> all = new java.util.EnumMap<>(QuarantineState.class);
        Map<QuarantineState, Long> active = new java.util.EnumMap<>(QuarantineState.class);
        for (QuarantineRecord r : ledger.ofQueue(sourceQueue, Integer.MAX_VALUE)) {
            all.merge(r.state(), 1L, Long::sum);
            if (!r.archivedToStore()) {
                active.merge(r.state(), 1L, Long::sum);
            }
        }
        assertThat(ledger.countByState(sourceQueue))
                .as("counts, tombstones included")
                .isEqualTo(all);
        assertThat(ledger.countActiveByState(sourceQueue)).as("active counts").isEqualTo(active);
        for (QuarantineState s : QuarantineState.values()) {
            assertThat(ledger.count(s, sourceQueue)).as("count of " + s).isEqualTo(active.getOrDefault(s, 0L));
        }
    }

    /** A QUARANTINED record of another source queue. */
    protected QuarantineRecord recordOf(String sourceQueue, String id, Instant arrivedAt) {
        QuarantineRecord r = record(id, arrivedAt);
        DeadLetterOrigin o = r.origin();
        return new QuarantineRecord(
                r.id(),
                r.state(),
                new DeadLetterOrigin(
                        o.consumer(),
                        sourceQueue,
                        sourceQueue + "-dlq",
                        o.sourceMessageId(),
                        o.idempotencyKey(),
                        arrivedAt),
                r.evidence(),
                r.payload(),
                r.attributes(),
                r.replayCount(),
                r.note(),
                r.audit(),
                r.version());
    }
}
