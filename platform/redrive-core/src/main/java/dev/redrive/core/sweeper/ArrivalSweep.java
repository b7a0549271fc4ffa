package dev.redrive.core.sweeper;

import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.PayloadStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The sweeper's first part: quarantine every arrival of a dead-letter queue. Each is classified from the evidence, its
 * ledger record written (once, however often it is seen; a replay that came back reopens its own record), and only
 * then is it deleted from the queue, so nothing is lost if the sweep dies anywhere.
 */
final class ArrivalSweep {

    private final DeadLetterSource source;
    private final QuarantineLedger ledger;
    private final LeaseStore leases;
    private final ClaimStore claims;
    private final Map<String, ? extends KeyReader> consumers;
    private final PayloadStore payloads;
    private final ClaimChecks claimChecks;
    private final ReplayStats stats;
    private final SweeperSettings settings;
    private final Clock clock;
    /** The last arrival time given out: arrivals get strictly increasing times, so the ledger keeps DLQ order. */
    private Instant lastArrival = Instant.EPOCH;

    ArrivalSweep(
            DeadLetterSource source,
            QuarantineLedger ledger,
            LeaseStore leases,
            ClaimStore claims,
            Map<String, ? extends KeyReader> consumers,
            PayloadStore payloads,
            ClaimChecks claimChecks,
            ReplayStats stats,
            SweeperSettings settings,
            Clock clock) {
        this.source = source;
        this.ledger = ledger;
        this.leases = leases;
        this.claims = claims;
        this.consumers = Map.copyOf(consumers);
        this.payloads = payloads;
        this.claimChecks = claimChecks;
        this.stats = stats;
        this.settings = settings;
        this.clock = clock;
    }

    /** Returns false when the lease was lost. */
    boolean run(Route route, Optional<LeaseToken> fence, BooleanSupplier timeLeft, SweepReport report) {
        int seen = 0;
        while (seen < settings.maxArrivalsPerRun() && timeLeft.getAsBoolean()) {
            if (lapsed(fence)) {
                return false; // no receive past the lease: what it would take could not be written
            }
            List<ArrivedDeadLetter> batch = source.receive(route.deadLetterQueue());
            if (batch.isEmpty()) {
                return true;
            }
            List<ArrivedDeadLetter> durable = new ArrayList<>();
            if (!quarantineAll(route, batch, fence, report, durable)) {
                source.delete(route.deadLetterQueue(), durable);
                return false; // lease lost: stop; the undeleted letters come back to the next sweeper
            }
            source.delete(route.deadLetterQueue(), durable);
            seen += batch.size();
        }
        return true;
    }

    /**
     * Records one received batch: the new dead letters in one batched insert, each on its own condition, a returned
     * replay by reopening its record. Adds to {@code durable} the letters that may leave the queue; false when the
     * lease was lost (only then is the lease store read: when a write was refused).
     */
    private boolean quarantineAll(
            Route route,
            List<ArrivedDeadLetter> batch,
            Optional<LeaseToken> fence,
            SweepReport report,
            List<ArrivedDeadLetter> durable) {
        List<ArrivedDeadLetter> fresh = new ArrayList<>();
        List<ArrivedDeadLetter> twins = new ArrayList<>();
        List<QuarantineRecord> records = new ArrayList<>();
        for (ArrivedDeadLetter letter : batch) {
            report.arrivalAged(Duration.between(letter.sentAt(), clock.instant()));
            Instant now = nextArrival();
            Optional<QuarantineRecord> replayed = letter.replay().flatMap(m -> ledger.find(m.quarantineId()));
            if (replayed.isPresent()) {
                Kept kept = reopen(replayed.get(), letter, fence, report, now);
                if (kept == Kept.LEASE_LOST) {
                    return false;
                }
                if (kept == Kept.DURABLE) {
                    durable.add(letter);
                } // NOT_YET: left in the queue; it comes back after its visibility timeout
                continue;
            }
            QuarantineRecord record = record(route, letter, now);
            if (records.stream().anyMatch(r -> r.id().equals(record.id()))) {
                twins.add(letter); // the same dead letter twice in one batch: one record
                continue;
            }
            fresh.add(letter);
            records.add(record);
        }
        if (records.isEmpty()) {
            return true;
        }
        Set<String> written = ledger.insertAllIfAbsent(records, fence);
        boolean refused = written.size() < records.size();
        if (refused && !leases.holds(fence.orElseThrow(), clock.instant())) {
            for (int i = 0; i < fresh.size(); i++) {
                if (written.contains(records.get(i).id())) {
                    durable.add(fresh.get(i));
                    report.quarantined(records.get(i).classification().failureClass());
                }
            }
            return false;
        }
        for (int i = 0; i < fresh.size(); i++) {
            if (written.contains(records.get(i).id())) {
                report.quarantined(records.get(i).classification().failureClass());
            } else {
                report.alreadyQuarantined();
            }
            durable.add(fresh.get(i));
        }
        for (ArrivedDeadLetter twin : twins) {
            report.alreadyQuarantined();
            durable.add(twin);
        }
        return true;
    }

    private boolean lapsed(Optional<LeaseToken> fence) {
        return fence.isPresent() && fence.get().lapsed(clock.instant());
    }

    /**
     * The arrival time of the next letter: now, or a millisecond after the previous arrival (the ledger keeps
     * milliseconds and lists by arrival), so the messages of a FIFO group — a failed head and those that waited behind
     * it — are replayed in the order their dead-letter queue delivered them.
     */
    private synchronized Instant nextArrival() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        lastArrival = now.isAfter(lastArrival) ? now : lastArrival.plusMillis(1);
        return lastArrival;
    }

    /** Whether a letter may leave its queue: only once its record is durably in a state from which it can be worked. */
    private enum Kept {
        DURABLE,
        NOT_YET,
        LEASE_LOST
    }

    /** How many times a reopen is tried on a fresh read when the record changed meanwhile. */
    private static final int REOPEN_ATTEMPTS = 3;

    /**
     * The record of a new dead letter, classified from the evidence: the failure its consumer attached, else the
     * claim's history (read only then: an attached failure decides the class by itself).
     */
    private QuarantineRecord record(Route route, ArrivedDeadLetter letter, Instant now) {
        String consumer = letter.attached()
                .map(ArrivedDeadLetter.AttachedFailure::consumer)
                .filter(consumers::containsKey)
                .orElse(route.consumer());
        Optional<String> attachedKey = letter.attached().map(ArrivedDeadLetter.AttachedFailure::idempotencyKey);
        // Metadata comes from outside: a key that is not consumer#key is recorded as unreadable, never trusted (and
        // never allowed to fail the sweep of the whole queue); the key is then read from the payload if it can be.
        String malformedKey =
                attachedKey.filter(k -> IdempotencyKey.tryParse(k).isEmpty()).orElse(null);
        String key = attachedKey.filter(k -> malformedKey == null).orElseGet(() -> keyOf(consumer, letter));
        Optional<FailureRecord> attachedFailure = letter.attached().map(ArrivedDeadLetter.AttachedFailure::failure);
        Optional<ClaimRecord> claim = key == null || attachedFailure.isPresent()
                ? Optional.empty()
                : claims.find(IdempotencyKey.parse(key), now);
        DeadLetterEvidence evidence = DeadLetterEvidence.classify(attachedFailure, claim, letter.receiveCount(), now);
        String id = QuarantineIds.of(route.deadLetterQueue(), letter.sourceMessageId());
        String reason = "arrived in " + route.deadLetterQueue() + ": "
                + evidence.classification().failureClass() + " "
                + evidence.classification().errorType() + " — "
                + evidence.classification().reason()
                + (malformedKey == null
                        ? ""
                        : "; its dead-letter metadata named an idempotency key that is not consumer#key ("
                                + abbreviated(malformedKey) + ")");
        return new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin(
                        consumer, route.sourceQueue(), route.deadLetterQueue(), letter.sourceMessageId(), key, now),
                evidence,
                payloadOf(id, letter),
                letter.attributes(),
                0,
                reason,
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, now, Actor.AUTOMATION, reason)),
                0);
    }

    /** Inline, or kept aside when too large for a ledger record. */
    private PayloadLocation payloadOf(String id, ArrivedDeadLetter letter) {
        return letter.body().length() > settings.inlineBodyLimit()
                ? new PayloadLocation.Aside(payloads.put(id, letter.body()))
                : new PayloadLocation.Inline(letter.body());
    }

    /**
     * Reopens the record of a replay that came back, on a fresh read each time the record changed meanwhile. A
     * tombstone (the record was archived after its replay) gets the returned payload and attributes back, so every
     * listing sees it again. The letter may leave the queue only once its record is reopened or was already.
     */
    private Kept reopen(
            QuarantineRecord found,
            ArrivedDeadLetter letter,
            Optional<LeaseToken> fence,
            SweepReport report,
            Instant now) {
        QuarantineRecord replayed = found;
        for (int attempt = 0; attempt < REOPEN_ATTEMPTS; attempt++) {
            if (!awaitsThisReturn(replayed, letter)) {
                report.alreadyQuarantined(); // this return was seen already
                return Kept.DURABLE;
            }
            if (ledger.save(reopened(replayed, letter, now), fence).isPresent()) {
                stats.add(replayed.classification().failureClass(), 0, 1);
                report.replayReturned(replayed.classification().failureClass());
                return Kept.DURABLE;
            }
            if (!leases.holds(fence.orElseThrow(), clock.instant())) {
                return Kept.LEASE_LOST;
            }
            Optional<QuarantineRecord> again = ledger.find(replayed.id());
            if (again.isEmpty()) {
                return Kept.NOT_YET;
            }
            replayed = again.get();
        }
        return Kept.NOT_YET; // still changing: the letter stays in the queue and is looked at again
    }

    /**
     * Whether {@code r} is still waiting for the return of the replay {@code letter} carries: REPLAYED, or still in
     * IDEMPOTENCY_CHECK with this replay sent but not yet marked REPLAYED (the replayer's REPLAYED save, conditional on
     * the version it read, then fails: it never covers a return that is no longer in any queue).
     */
    private static boolean awaitsThisReturn(QuarantineRecord r, ArrivedDeadLetter letter) {
        int sent = letter.replay().orElseThrow().replayCount();
        return switch (r.state()) {
            case REPLAYED -> sent >= r.replayCount();
            case IDEMPOTENCY_CHECK -> sent > r.replayCount();
            default -> false; // reopened already, or resolved by a decision
        };
    }

    private QuarantineRecord reopened(QuarantineRecord replayed, ArrivedDeadLetter letter, Instant now) {
        Optional<ClaimRecord> claim = replayed.key().flatMap(k -> claims.find(IdempotencyKey.parse(k), now));
        DeadLetterEvidence evidence = DeadLetterEvidence.classify(
                letter.attached().map(ArrivedDeadLetter.AttachedFailure::failure), claim, letter.receiveCount(), now);
        int replayCount =
                Math.max(replayed.replayCount(), letter.replay().orElseThrow().replayCount());
        String reason = "replay #" + replayCount + " dead-lettered again: "
                + evidence.classification().failureClass() + " "
                + evidence.classification().errorType();
        QuarantineRecord active = replayed.archivedToStore()
                ? replayed.withPayload(payloadOf(replayed.id(), letter)).withAttributes(letter.attributes())
                : replayed;
        return active.withEvidence(evidence)
                .withReplayCount(replayCount)
                .moveTo(QuarantineState.QUARANTINED, Actor.AUTOMATION, reason, now);
    }

    private static String abbreviated(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }

    private String keyOf(String consumerName, ArrivedDeadLetter letter) {
        KeyReader consumer = consumers.get(consumerName);
        if (consumer == null) {
            return null;
        }
        String payload;
        try {
            payload = claimChecks.payloadOf(letter.body(), letter.stringAttributes());
        } catch (RuntimeException unreadable) {
            return null; // a claim check whose payload is gone or unreadable now: no key, and the evidence says so
        }
        return consumer.producerKey(new IncomingMessage(
                        letter.messageId(),
                        null,
                        payload,
                        letter.stringAttributes(),
                        letter.receiveCount(),
                        "",
                        null,
                        letter.attributes()))
                .map(producerKey -> new IdempotencyKey(consumerName, producerKey).value())
                .orElse(null); // no key: the evidence says so
    }
}
