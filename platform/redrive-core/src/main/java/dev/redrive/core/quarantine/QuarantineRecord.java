package dev.redrive.core.quarantine;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One dead letter in the quarantine ledger.
 *
 * @param id          deterministic from the dead-letter queue and the source message id, so the same dead letter seen
 *                    twice is one record
 * @param state       where it stands
 * @param origin      where it came from: consumer, queues, source message id, claim key, arrival
 * @param evidence    why it failed: classification, first and last failure, receive count
 * @param payload     where its payload is: inline, kept aside, or archived (the record is then a tombstone)
 * @param attributes  the original message attributes, each with its type (String, Number, Binary and custom types, so a
 *                    replay is the original), Redrive's own markers excluded; a FIFO dead letter's message group is
 *                    kept here for its replay, under the SQS adapter's own attribute name
 * @param replayCount how many times it was sent back
 * @param note        the latest outcome in words ("already applied", "upcast v1 to v2", an incompatibility)
 * @param audit       every transition, oldest first
 * @param version     optimistic-lock counter, bumped on every write
 */
public record QuarantineRecord(
        String id,
        QuarantineState state,
        DeadLetterOrigin origin,
        DeadLetterEvidence evidence,
        PayloadLocation payload,
        Map<String, MessageAttribute> attributes,
        int replayCount,
        String note,
        List<AuditEntry> audit,
        long version) {

    public QuarantineRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(evidence, "evidence");
        Objects.requireNonNull(payload, "payload");
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        audit = audit == null ? List.of() : List.copyOf(audit);
        note = note == null ? "" : note;
    }

    /** The text of its String and Number attributes: what a consumer and a claim check read. */
    public Map<String, String> stringAttributes() {
        return MessageAttribute.strings(attributes);
    }

    public String consumer() {
        return origin.consumer();
    }

    public String sourceQueue() {
        return origin.sourceQueue();
    }

    public String deadLetterQueue() {
        return origin.deadLetterQueue();
    }

    public String sourceMessageId() {
        return origin.sourceMessageId();
    }

    /** Its claim key, or null when none could be read. */
    public String idempotencyKey() {
        return origin.idempotencyKey();
    }

    public Optional<String> key() {
        return origin.key();
    }

    public Instant arrivedAt() {
        return origin.arrivedAt();
    }

    public Classification classification() {
        return evidence.classification();
    }

    public Instant firstFailedAt() {
        return evidence.firstFailedAt();
    }

    public Instant lastFailedAt() {
        return evidence.lastFailedAt();
    }

    public int receiveCount() {
        return evidence.receiveCount();
    }

    /** The consumer's build version at its last recorded failure; empty when none was recorded. */
    public String buildVersion() {
        return evidence.buildVersion();
    }

    /** The payload when it is inline, else null. */
    public String body() {
        return payload.inlineBody();
    }

    /** Where a payload kept aside is, else null. */
    public String bodyRef() {
        return payload.asideReference();
    }

    /** Once archived to the store, the object holding it, else null. */
    public String archiveRef() {
        return payload.archiveReference();
    }

    /** How long it has waited, for "oldest unresolved" metrics and retention. */
    public Duration age(Instant now) {
        return Duration.between(arrivedAt(), now);
    }

    /**
     * When its state last changed: the latest transition in its audit trail, else its arrival. Retention counts from
     * here; an entry that changes nothing (a reveal of its payload) does not restart it.
     */
    public Instant lastChangedAt() {
        for (int i = audit.size() - 1; i >= 0; i--) {
            if (audit.get(i).transition()) {
                return audit.get(i).at();
            }
        }
        return arrivedAt();
    }

    public boolean archivedToStore() {
        return payload instanceof PayloadLocation.Archived;
    }

    /**
     * This record moved to {@code to}, with the transition appended to the audit trail.
     *
     * @throws IllegalTransition when the state machine does not allow it
     */
    public QuarantineRecord moveTo(QuarantineState to, Actor actor, String reason, Instant at) {
        if (!state.canMoveTo(to)) {
            throw new IllegalTransition(id, state, to);
        }
        List<AuditEntry> trail = new ArrayList<>(audit);
        trail.add(new AuditEntry(state, to, at, actor, reason));
        return new QuarantineRecord(id, to, origin, evidence, payload, attributes, replayCount, reason, trail, version);
    }

    /**
     * This record, in the same state, with an audit entry saying {@code actor} resumed it (a replay resumed from
     * IDEMPOTENCY_CHECK). Saving it is the resuming actor's claim on the next step: of two actors resuming at once,
     * only one save succeeds. It also restarts the record's retention, which counts from its last audit entry.
     */
    public QuarantineRecord resumed(Actor actor, String reason, Instant at) {
        List<AuditEntry> trail = new ArrayList<>(audit);
        trail.add(new AuditEntry(state, state, at, actor, reason));
        return new QuarantineRecord(
                id, state, origin, evidence, payload, attributes, replayCount, note, trail, version);
    }

    /**
     * This record, in the same state, with an audit entry saying {@code person} was shown its payload's sensitive
     * fields ({@link AuditEntry.Action#PAYLOAD_REVEALED}, {@code reason} naming them); its note is unchanged.
     */
    public QuarantineRecord revealed(Actor person, String reason, Instant at) {
        List<AuditEntry> trail = new ArrayList<>(audit);
        trail.add(new AuditEntry(state, state, at, person, reason, AuditEntry.Action.PAYLOAD_REVEALED));
        return new QuarantineRecord(
                id, state, origin, evidence, payload, attributes, replayCount, note, trail, version);
    }

    /** With an inline payload of {@code newBody} (an upcast one). */
    public QuarantineRecord withBody(String newBody) {
        return withPayload(new PayloadLocation.Inline(newBody));
    }

    /** With its payload at {@code location} (an upcast one kept aside, or a returned replay's). */
    public QuarantineRecord withPayload(PayloadLocation location) {
        return new QuarantineRecord(
                id, state, origin, evidence, location, attributes, replayCount, note, audit, version);
    }

    /** With {@code newAttributes} (a returned replay's, on a tombstone that kept none). */
    public QuarantineRecord withAttributes(Map<String, MessageAttribute> newAttributes) {
        return new QuarantineRecord(
                id, state, origin, evidence, payload, newAttributes, replayCount, note, audit, version);
    }

    public QuarantineRecord withReplayCount(int count) {
        return new QuarantineRecord(id, state, origin, evidence, payload, attributes, count, note, audit, version);
    }

    /** After a failed replay came back: the new evidence replaces the old. */
    public QuarantineRecord withEvidence(DeadLetterEvidence newEvidence) {
        return new QuarantineRecord(
                id, state, origin, newEvidence, payload, attributes, replayCount, note, audit, version);
    }

    /** The tombstone left in the ledger once the record is in the archive: no payload, no attributes. */
    public QuarantineRecord tombstone(String ref) {
        return new QuarantineRecord(
                id,
                state,
                origin,
                evidence,
                new PayloadLocation.Archived(ref),
                Map.of(),
                replayCount,
                note,
                audit,
                version);
    }

    public QuarantineRecord withVersion(long v) {
        return new QuarantineRecord(id, state, origin, evidence, payload, attributes, replayCount, note, audit, v);
    }
}
