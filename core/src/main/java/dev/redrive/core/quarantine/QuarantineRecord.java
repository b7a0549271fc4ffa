package dev.redrive.core.quarantine;

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
 * @param id              deterministic from the dead-letter queue and the source message id, so the same dead letter
 *                        seen twice is one record
 * @param state           where it stands
 * @param consumer        the consumer it failed in
 * @param sourceQueue     the queue it came from (name), where a replay sends it back
 * @param deadLetterQueue the dead-letter queue it arrived in (name)
 * @param idempotencyKey  its claim key when one could be read ({@code consumer#producerKey}), else null
 * @param classification  why it failed, from the evidence
 * @param firstFailedAt   the first recorded failure, when known
 * @param lastFailedAt    the last recorded failure, when known (matched against maintenance windows)
 * @param arrivedAt       when the sweeper first saw it
 * @param receiveCount    how many times the source queue delivered it
 * @param sourceMessageId the message id in the source queue
 * @param body            the payload, or null when it is stored aside ({@code bodyRef}) or archived
 * @param bodyRef         where a large (or archived) payload is kept, else null
 * @param attributes      the original string message attributes (Redrive's own markers excluded; a FIFO dead letter's
 *                        message group is kept here for its replay, under the SQS adapter's own attribute name)
 * @param replayCount     how many times it was sent back
 * @param note            the latest outcome in words ("already applied", "upcast v1 to v2", an incompatibility)
 * @param archiveRef      once archived to S3, the object holding it (the record is then a tombstone)
 * @param audit           every transition, oldest first
 * @param version         optimistic-lock counter, bumped on every write
 */
public record QuarantineRecord(
        String id,
        QuarantineState state,
        String consumer,
        String sourceQueue,
        String deadLetterQueue,
        String idempotencyKey,
        Classification classification,
        Instant firstFailedAt,
        Instant lastFailedAt,
        Instant arrivedAt,
        int receiveCount,
        String sourceMessageId,
        String body,
        String bodyRef,
        Map<String, String> attributes,
        int replayCount,
        String note,
        String archiveRef,
        List<AuditEntry> audit,
        long version) {

    public QuarantineRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(sourceQueue, "sourceQueue");
        Objects.requireNonNull(classification, "classification");
        Objects.requireNonNull(arrivedAt, "arrivedAt");
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        audit = audit == null ? List.of() : List.copyOf(audit);
        note = note == null ? "" : note;
    }

    public Optional<String> key() {
        return Optional.ofNullable(idempotencyKey);
    }

    /** How long it has waited, for "oldest unresolved" metrics and retention. */
    public Duration age(Instant now) {
        return Duration.between(arrivedAt, now);
    }

    public boolean archivedToStore() {
        return archiveRef != null;
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
        return new QuarantineRecord(
                id,
                to,
                consumer,
                sourceQueue,
                deadLetterQueue,
                idempotencyKey,
                classification,
                firstFailedAt,
                lastFailedAt,
                arrivedAt,
                receiveCount,
                sourceMessageId,
                body,
                bodyRef,
                attributes,
                replayCount,
                reason,
                archiveRef,
                trail,
                version);
    }

    public QuarantineRecord withBody(String newBody) {
        return new QuarantineRecord(
                id,
                state,
                consumer,
                sourceQueue,
                deadLetterQueue,
                idempotencyKey,
                classification,
                firstFailedAt,
                lastFailedAt,
                arrivedAt,
                receiveCount,
                sourceMessageId,
                newBody,
                bodyRef,
                attributes,
                replayCount,
                note,
                archiveRef,
                audit,
                version);
    }

    public QuarantineRecord withReplayCount(int count) {
        return new QuarantineRecord(
                id,
                state,
                consumer,
                sourceQueue,
                deadLetterQueue,
                idempotencyKey,
                classification,
                firstFailedAt,
                lastFailedAt,
                arrivedAt,
                receiveCount,
                sourceMessageId,
                body,
                bodyRef,
                attributes,
                count,
                note,
                archiveRef,
                audit,
                version);
    }

    /** After a failed replay came back: the new evidence replaces the old. */
    public QuarantineRecord withEvidence(Classification c, Instant first, Instant last, int receives) {
        return new QuarantineRecord(
                id,
                state,
                consumer,
                sourceQueue,
                deadLetterQueue,
                idempotencyKey,
                c,
                first,
                last,
                arrivedAt,
                receives,
                sourceMessageId,
                body,
                bodyRef,
                attributes,
                replayCount,
                note,
                archiveRef,
                audit,
                version);
    }

    /** The tombstone left in the ledger once the record is in the archive: no payload, no attributes. */
    public QuarantineRecord tombstone(String ref) {
        return new QuarantineRecord(
                id,
                state,
                consumer,
                sourceQueue,
                deadLetterQueue,
                idempotencyKey,
                classification,
                firstFailedAt,
                lastFailedAt,
                arrivedAt,
                receiveCount,
                sourceMessageId,
                null,
                null,
                Map.of(),
                replayCount,
                note,
                ref,
                audit,
                version);
    }

    public QuarantineRecord withVersion(long v) {
        return new QuarantineRecord(
                id,
                state,
                consumer,
                sourceQueue,
                deadLetterQueue,
                idempotencyKey,
                classification,
                firstFailedAt,
                lastFailedAt,
                arrivedAt,
                receiveCount,
                sourceMessageId,
                body,
                bodyRef,
                attributes,
                replayCount,
                note,
                archiveRef,
                audit,
                v);
    }
}
