package dev.redrive.core.replay;

import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Replays a dead letter through the same checks as a first delivery, for the automation and for people alike:
 * {@code QUARANTINED → UNDER_REVIEW → SCHEMA_CHECK → IDEMPOTENCY_CHECK → REPLAYED | ARCHIVED}. Every step is saved
 * (conditional on the version read, and on the caller's lease when it has one) before the next, so a replay stopped
 * anywhere resumes where it was, and a replayed record is never sent again.
 */
public final class ReplayService {

    private final QuarantineLedger ledger;
    private final SchemaGate schemas;
    private final IdempotencyGate idempotency;
    private final ReplaySender sender;
    private final PayloadStore payloads;
    private final Clock clock;

    public ReplayService(QuarantineLedger ledger, SchemaGate schemas, IdempotencyGate idempotency,
            ReplaySender sender, PayloadStore payloads, Clock clock) {
        this.ledger = ledger;
        this.schemas = schemas;
        this.idempotency = idempotency;
        this.sender = sender;
        this.payloads = payloads;
        this.clock = clock;
    }

    /** Replays {@code quarantineId} on behalf of {@code actor}; with {@code dryRun}, only reports what would happen. */
    public ReplayOutcome replay(String quarantineId, Actor actor, String why, Optional<LeaseToken> fence,
            boolean dryRun) {
        Optional<QuarantineRecord> found = ledger.find(quarantineId);
        if (found.isEmpty()) {
            return new ReplayOutcome.NotFound(quarantineId);
        }
        QuarantineRecord r = found.get();
        if (r.state().resolved() || r.archivedToStore()) {
            return new ReplayOutcome.NotReplayable(quarantineId, "it is " + r.state()
                    + (r.note().isEmpty() ? "" : " (" + r.note() + ")"));
        }
        String body = r.body() != null ? r.body() : payloads.get(r.bodyRef());
        if (dryRun) {
            return dryRun(r, body);
        }
        try {
            if (r.state() == QuarantineState.QUARANTINED) {
                r = step(r, QuarantineState.UNDER_REVIEW, actor, why, fence);
            }
            if (r.state() == QuarantineState.UNDER_REVIEW) {
                r = step(r, QuarantineState.SCHEMA_CHECK, actor, "checking against the consumer's current schema",
                        fence);
            }
            String upcast = "";
            if (r.state() == QuarantineState.SCHEMA_CHECK) {
                SchemaGate.Verdict schema = schemas.check(r.consumer(), body);
                if (schema instanceof SchemaGate.Incompatible incompatible) {
                    step(r, QuarantineState.ARCHIVED, actor, "incompatible: " + incompatible.reason(), fence);
                    return new ReplayOutcome.Refused(quarantineId, incompatible.reason(), false);
                }
                if (schema instanceof SchemaGate.Upcast u) {
                    upcast = "upcast v" + u.fromVersion() + " to v" + u.toVersion();
                    body = u.body();
                    r = r.body() != null ? r.withBody(body) : r;
                }
                r = step(r, QuarantineState.IDEMPOTENCY_CHECK, actor, upcast.isEmpty() ? "schema is current"
                        : upcast, fence);
            }
            return idempotencyThenSend(r, body, upcast, actor, fence);
        } catch (ConflictException e) {
            return new ReplayOutcome.Conflict(quarantineId, e.getMessage());
        }
    }

    private ReplayOutcome idempotencyThenSend(QuarantineRecord r, String body, String upcast, Actor actor,
            Optional<LeaseToken> fence) {
        IdempotencyGate.Verdict verdict = idempotency.check(r.consumer(), body, clock.instant());
        if (verdict instanceof IdempotencyGate.AlreadyApplied applied) {
            step(r, QuarantineState.REPLAYED, actor, "already applied under " + applied.key() + " (token "
                    + applied.fencingToken() + "); nothing sent", fence);
            return new ReplayOutcome.AlreadyApplied(r.id(), applied.key(), false);
        }
        if (verdict instanceof IdempotencyGate.InProgress busy) {
            return new ReplayOutcome.Deferred(r.id(), busy.key(), busy.leaseExpiresAt());
        }
        if (verdict instanceof IdempotencyGate.Unsafe unsafe) {
            step(r, QuarantineState.ARCHIVED, actor, "unsafe to replay: " + unsafe.reason(), fence);
            return new ReplayOutcome.Refused(r.id(), unsafe.reason(), false);
        }
        int replayCount = r.replayCount() + 1;
        Map<String, String> attributes = new HashMap<>(r.attributes());
        attributes.put(ReplayMarker.ATTRIBUTE, new ReplayMarker(r.id(), replayCount).encode());
        String messageId = sender.send(r.sourceQueue(), body, attributes);
        step(r.withReplayCount(replayCount), QuarantineState.REPLAYED, actor, "sent to " + r.sourceQueue()
                + " as " + messageId + (upcast.isEmpty() ? "" : " after " + upcast), fence);
        return new ReplayOutcome.Sent(r.id(), r.sourceQueue(), messageId, replayCount, upcast, false);
    }

    private ReplayOutcome dryRun(QuarantineRecord r, String body) {
        String upcast = "";
        if (r.state().ordinal() <= QuarantineState.SCHEMA_CHECK.ordinal()) {
            SchemaGate.Verdict schema = schemas.check(r.consumer(), body);
            if (schema instanceof SchemaGate.Incompatible incompatible) {
                return new ReplayOutcome.Refused(r.id(), incompatible.reason(), true);
            }
            if (schema instanceof SchemaGate.Upcast u) {
                upcast = "upcast v" + u.fromVersion() + " to v" + u.toVersion();
                body = u.body();
            }
        }
        IdempotencyGate.Verdict verdict = idempotency.check(r.consumer(), body, clock.instant());
        if (verdict instanceof IdempotencyGate.AlreadyApplied applied) {
            return new ReplayOutcome.AlreadyApplied(r.id(), applied.key(), true);
        }
        if (verdict instanceof IdempotencyGate.InProgress busy) {
            return new ReplayOutcome.Deferred(r.id(), busy.key(), busy.leaseExpiresAt());
        }
        if (verdict instanceof IdempotencyGate.Unsafe unsafe) {
            return new ReplayOutcome.Refused(r.id(), unsafe.reason(), true);
        }
        return new ReplayOutcome.Sent(r.id(), r.sourceQueue(), "", r.replayCount() + 1, upcast, true);
    }

    private QuarantineRecord step(QuarantineRecord r, QuarantineState to, Actor actor, String reason,
            Optional<LeaseToken> fence) {
        return ledger.save(r.moveTo(to, actor, reason, clock.instant()), fence).orElseThrow(() ->
                new ConflictException("dead letter " + r.id() + " changed while moving to " + to
                        + (fence.isPresent() ? " (or the sweeper's lease was taken over)" : "")));
    }

    /** A conditional save did not hold. */
    private static final class ConflictException extends RuntimeException {
        ConflictException(String message) {
            super(message);
        }
    }
}
