package dev.redrive.core.replay;

import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replays dead letters through the same checks as a first delivery, for the automation and for people alike:
 * {@code QUARANTINED → UNDER_REVIEW → SCHEMA_CHECK → IDEMPOTENCY_CHECK → REPLAYED | ARCHIVED}. Every transition is in
 * the audit trail. The record is saved (conditional on the version read, and on the caller's lease when it has one)
 * once the checks have passed and before anything is sent, then once more when sent: a replay stopped anywhere
 * resumes where it was, and a REPLAYED record is never sent again. Sends are batched per source queue.
 */
public final class ReplayService {

    private final QuarantineLedger ledger;
    private final SchemaGate schemas;
    private final IdempotencyGate idempotency;
    private final ReplaySender sender;
    private final PayloadStore payloads;
    private final Clock clock;

    public ReplayService(
            QuarantineLedger ledger,
            SchemaGate schemas,
            IdempotencyGate idempotency,
            ReplaySender sender,
            PayloadStore payloads,
            Clock clock) {
        this.ledger = ledger;
        this.schemas = schemas;
        this.idempotency = idempotency;
        this.sender = sender;
        this.payloads = payloads;
        this.clock = clock;
    }

    /** Replays {@code quarantineId} on behalf of {@code actor}; with {@code dryRun}, only reports what would happen. */
    public ReplayOutcome replay(
            String quarantineId, Actor actor, String why, Optional<LeaseToken> fence, boolean dryRun) {
        if (dryRun) {
            return ledger.find(quarantineId).map(this::dryRun).orElse(new ReplayOutcome.NotFound(quarantineId));
        }
        return replayAll(List.of(quarantineId), actor, why, fence).get(quarantineId);
    }

    /**
     * Replays several dead letters: each through its checks, then the ready ones sent in batches per source queue.
     *
     * @return the outcome of each, by id, in the order given
     */
    public Map<String, ReplayOutcome> replayAll(
            List<String> quarantineIds, Actor actor, String why, Optional<LeaseToken> fence) {
        Map<String, ReplayOutcome> outcomes = new LinkedHashMap<>();
        Map<String, List<Ready>> readyByQueue = new LinkedHashMap<>();
        for (String id : quarantineIds) {
            Optional<QuarantineRecord> found = ledger.find(id);
            if (found.isEmpty()) {
                outcomes.put(id, new ReplayOutcome.NotFound(id));
                continue;
            }
            Checked checked = check(found.get(), actor, why, fence);
            if (checked instanceof Ready ready) {
                readyByQueue
                        .computeIfAbsent(ready.record().sourceQueue(), q -> new ArrayList<>())
                        .add(ready);
                outcomes.put(id, null); // filled once sent
            } else if (checked instanceof Settled settled) {
                outcomes.put(id, settled.outcome());
            }
        }
        readyByQueue.forEach((queue, ready) -> send(queue, ready, actor, fence, outcomes));
        return outcomes;
    }

    /** What the checks decided about one record. */
    private sealed interface Checked permits Ready, Settled {}

    /** A record that passed both checks, saved in IDEMPOTENCY_CHECK, with the body and marker to send. */
    private record Ready(QuarantineRecord record, String body, String upcast, int replayCount) implements Checked {}

    /** The replay ends here, with this outcome. */
    private record Settled(ReplayOutcome outcome) implements Checked {}

    /** Runs the checks; returns a {@link Ready} or the outcome that ends the replay here. */
    private Checked check(QuarantineRecord r, Actor actor, String why, Optional<LeaseToken> fence) {
        if (r.state().resolved() || r.archivedToStore()) {
            return new Settled(new ReplayOutcome.NotReplayable(
                    r.id(), "it is " + r.state() + (r.note().isEmpty() ? "" : " (" + r.note() + ")")));
        }
        String body = bodyOf(r);
        QuarantineRecord moved = r;
        String upcast = "";
        if (moved.state() == QuarantineState.QUARANTINED) {
            moved = moved.moveTo(QuarantineState.UNDER_REVIEW, actor, why, clock.instant());
        }
        if (moved.state() == QuarantineState.UNDER_REVIEW) {
            moved = moved.moveTo(
                    QuarantineState.SCHEMA_CHECK,
                    actor,
                    "checking against the consumer's current schema",
                    clock.instant());
        }
        if (moved.state() == QuarantineState.SCHEMA_CHECK) {
            SchemaGate.Verdict schema = schemas.check(moved.consumer(), body);
            if (schema instanceof SchemaGate.Incompatible incompatible) {
                return settle(
                        save(
                                        moved.moveTo(
                                                QuarantineState.ARCHIVED,
                                                actor,
                                                "incompatible: " + incompatible.reason(),
                                                clock.instant()),
                                        fence)
                                .map(saved -> new ReplayOutcome.Refused(r.id(), incompatible.reason(), false)),
                        r,
                        fence);
            }
            if (schema instanceof SchemaGate.Upcast u) {
                upcast = upcastNote(u);
                body = u.body();
                moved = moved.body() != null ? moved.withBody(body) : moved;
            }
            moved = moved.moveTo(
                    QuarantineState.IDEMPOTENCY_CHECK,
                    actor,
                    upcast.isEmpty() ? "schema is current" : upcast,
                    clock.instant());
        }
        IdempotencyGate.Verdict verdict = idempotency.check(moved.consumer(), body, r.arrivedAt(), clock.instant());
        if (verdict instanceof IdempotencyGate.AlreadyApplied applied) {
            return settle(
                    save(
                                    moved.moveTo(
                                            QuarantineState.REPLAYED,
                                            actor,
                                            "already applied under " + applied.key() + " (token "
                                                    + applied.fencingToken() + "); nothing sent",
                                            clock.instant()),
                                    fence)
                            .map(saved -> new ReplayOutcome.AlreadyApplied(r.id(), applied.key(), false)),
                    r,
                    fence);
        }
        if (verdict instanceof IdempotencyGate.Unsafe unsafe) {
            return settle(
                    save(
                                    moved.moveTo(
                                            QuarantineState.ARCHIVED,
                                            actor,
                                            "unsafe to replay: " + unsafe.reason(),
                                            clock.instant()),
                                    fence)
                            .map(saved -> new ReplayOutcome.Refused(r.id(), unsafe.reason(), false)),
                    r,
                    fence);
        }
        Optional<QuarantineRecord> saved = moved == r ? Optional.of(r) : save(moved, fence);
        if (saved.isEmpty()) {
            return new Settled(conflict(r, fence));
        }
        if (verdict instanceof IdempotencyGate.InProgress busy) {
            return new Settled(new ReplayOutcome.Deferred(r.id(), busy.key(), busy.leaseExpiresAt()));
        }
        return new Ready(saved.get(), body, upcast, saved.get().replayCount() + 1);
    }

    private void send(
            String queue,
            List<Ready> ready,
            Actor actor,
            Optional<LeaseToken> fence,
            Map<String, ReplayOutcome> outcomes) {
        for (int from = 0; from < ready.size(); from += 10) {
            List<Ready> chunk = ready.subList(from, Math.min(ready.size(), from + 10));
            List<ReplaySender.Outgoing> messages = new ArrayList<>();
            for (Ready r : chunk) {
                Map<String, String> attributes = new HashMap<>(r.record().attributes());
                attributes.put(
                        ReplayMarker.ATTRIBUTE, new ReplayMarker(r.record().id(), r.replayCount()).encode());
                messages.add(new ReplaySender.Outgoing(r.body(), attributes));
            }
            List<String> ids = sender.sendAll(queue, messages);
            for (int i = 0; i < chunk.size(); i++) {
                Ready r = chunk.get(i);
                String messageId = ids.get(i);
                if (messageId == null) {
                    outcomes.put(
                            r.record().id(),
                            new ReplayOutcome.Conflict(
                                    r.record().id(),
                                    "the send to " + queue
                                            + " failed; it stays in IDEMPOTENCY_CHECK for the next attempt"));
                    continue;
                }
                Optional<QuarantineRecord> done = save(
                        r.record()
                                .withReplayCount(r.replayCount())
                                .moveTo(
                                        QuarantineState.REPLAYED,
                                        actor,
                                        "sent to " + queue + " as " + messageId
                                                + (r.upcast().isEmpty() ? "" : " after " + r.upcast()),
                                        clock.instant()),
                        fence);
                outcomes.put(
                        r.record().id(),
                        done.isPresent()
                                ? new ReplayOutcome.Sent(
                                        r.record().id(), queue, messageId, r.replayCount(), r.upcast(), false)
                                : conflict(r.record(), fence));
            }
        }
    }

    private ReplayOutcome dryRun(QuarantineRecord r) {
        if (r.state().resolved() || r.archivedToStore()) {
            return new ReplayOutcome.NotReplayable(r.id(), "it is " + r.state());
        }
        String body = bodyOf(r);
        String upcast = "";
        if (r.state().ordinal() <= QuarantineState.SCHEMA_CHECK.ordinal()) {
            SchemaGate.Verdict schema = schemas.check(r.consumer(), body);
            if (schema instanceof SchemaGate.Incompatible incompatible) {
                return new ReplayOutcome.Refused(r.id(), incompatible.reason(), true);
            }
            if (schema instanceof SchemaGate.Upcast u) {
                upcast = upcastNote(u);
                body = u.body();
            }
        }
        IdempotencyGate.Verdict verdict = idempotency.check(r.consumer(), body, r.arrivedAt(), clock.instant());
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

    /** The outcome of a final save: {@code saved} when it was written, else a conflict. */
    private static Settled settle(Optional<ReplayOutcome> saved, QuarantineRecord r, Optional<LeaseToken> fence) {
        return new Settled(saved.orElseGet(() -> conflict(r, fence)));
    }

    private static String upcastNote(SchemaGate.Upcast u) {
        return "upcast v" + u.fromVersion() + " to v" + u.toVersion();
    }

    /** Every record that is not yet archived keeps its payload, inline or aside. */
    private String bodyOf(QuarantineRecord r) {
        return payloads.bodyOf(r)
                .orElseThrow(() -> new IllegalStateException("dead letter " + r.id()
                        + " keeps no payload (neither inline nor a reference); nothing can be replayed"));
    }

    private Optional<QuarantineRecord> save(QuarantineRecord r, Optional<LeaseToken> fence) {
        return ledger.save(r, fence);
    }

    private static ReplayOutcome conflict(QuarantineRecord r, Optional<LeaseToken> fence) {
        return new ReplayOutcome.Conflict(
                r.id(),
                "dead letter " + r.id() + " changed meanwhile"
                        + (fence.isPresent() ? " (or the sweeper's lease was taken over)" : "") + "; nothing was done");
    }
}
