package dev.redrive.core.quarantine;

import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Classifies a dead letter from the evidence: the failure metadata a consumer attached when it dead-lettered the
 * message itself, else the claim record's failure history, else the absence of any record — which, for a message the
 * redrive policy moved after several receives, means the consumer crashed or timed out mid-flight (POISON).
 *
 * <p>Attempts that vanished mid-flight (neither completed nor recorded a failure, their lease over) make a dead letter
 * POISON only when they outnumber the attempts that recorded a failure: a message that kills most of its deliveries
 * is the message's fault, but one sandbox that timed out in a cold start during an outage is not, and the outage's
 * recorded class (TRANSIENT) stands, its reason saying how many attempts vanished. A replay that dead-letters again
 * goes back to a person ({@code REPLAYED → QUARANTINED}), so such a message is replayed by a window at most once.
 *
 * @param classification the class, error type, reason and dependency
 * @param firstFailedAt   the first recorded failure, or null
 * @param lastFailedAt    the last recorded failure, or null (matched against maintenance windows)
 * @param receiveCount    how many times the source queue delivered it
 * @param buildVersion    the consumer's build version at the last recorded failure; empty when none was recorded
 */
public record DeadLetterEvidence(
        Classification classification,
        Instant firstFailedAt,
        Instant lastFailedAt,
        int receiveCount,
        String buildVersion) {

    /** Evidence with no build version recorded. */
    public DeadLetterEvidence(
            Classification classification, Instant firstFailedAt, Instant lastFailedAt, int receiveCount) {
        this(classification, firstFailedAt, lastFailedAt, receiveCount, "");
    }

    public DeadLetterEvidence {
        Objects.requireNonNull(classification, "classification");
        buildVersion = buildVersion == null ? "" : buildVersion.strip();
    }

    public static DeadLetterEvidence classify(
            Optional<FailureRecord> attached, Optional<ClaimRecord> claim, int receiveCount, Instant now) {
        if (attached.isPresent()) {
            FailureRecord f = attached.get();
            return new DeadLetterEvidence(
                    f.classification(), f.firstFailedAt(), f.lastFailedAt(), receiveCount, f.buildVersion());
        }
        if (claim.isEmpty()) {
            return new DeadLetterEvidence(
                    Classification.of(
                            FailureClass.POISON,
                            "NoFailureRecorded",
                            "moved to the DLQ by the redrive policy after " + receiveCount
                                    + " receives, and no attempt recorded a claim or a failure: the consumer crashed or "
                                    + "timed out before it could"),
                    null,
                    null,
                    receiveCount);
        }
        ClaimRecord c = claim.get();
        FailureRecord last = c.lastFailure();
        boolean inFlightNow = c.status() == ClaimStatus.IN_PROGRESS && !c.isLeaseExpired(now);
        long vanished = c.fencingToken()
                - c.failureCount()
                - (c.status() == ClaimStatus.COMPLETED ? 1 : 0)
                - (inFlightNow ? 1 : 0);
        if (vanished > 0 && vanished > c.failureCount()) {
            String lastWords = last == null
                    ? ""
                    : "; the last recorded failure was " + last.failureClass() + " "
                            + last.classification().errorType();
            return new DeadLetterEvidence(
                    Classification.of(
                            FailureClass.POISON,
                            "VanishedMidFlight",
                            vanished + " of " + c.fencingToken()
                                    + " attempts neither completed nor recorded a failure: "
                                    + "the consumer crashed or timed out mid-flight" + lastWords),
                    last == null ? null : last.firstFailedAt(),
                    last == null ? null : last.lastFailedAt(),
                    receiveCount,
                    last == null ? "" : last.buildVersion());
        }
        if (last != null) {
            Classification lc = last.classification();
            // Before the recorded reason, which may fill the reason's length on its own.
            String alsoVanished = vanished > 0
                    ? ", and " + vanished + " of " + c.fencingToken()
                            + " attempts neither completed nor recorded a failure (crashed or timed out mid-flight)"
                    : "";
            return new DeadLetterEvidence(
                    new Classification(
                            lc.failureClass(),
                            lc.errorType(),
                            "failed " + c.failureCount() + " time(s) with " + lc.errorType() + alsoVanished + ": "
                                    + lc.reason(),
                            lc.dependency()),
                    last.firstFailedAt(),
                    last.lastFailedAt(),
                    receiveCount,
                    last.buildVersion());
        }
        if (c.status() == ClaimStatus.COMPLETED) {
            return new DeadLetterEvidence(
                    Classification.of(
                            FailureClass.TRANSIENT,
                            "AppliedBeforeDeadLetter",
                            "the effect completed under token " + c.fencingToken() + " but the message was not deleted "
                                    + "in time; a replay will find it already applied"),
                    null,
                    null,
                    receiveCount);
        }
        return new DeadLetterEvidence(
                Classification.of(FailureClass.POISON, "NoFailureRecorded", "claimed but no failure recorded"),
                null,
                null,
                receiveCount);
    }
}
