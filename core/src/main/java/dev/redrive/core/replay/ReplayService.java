package dev.redrive.core.replay;

import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.consumer.IdempotentConsumer;
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
import java.util.Objects;
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

    private ReplayService(Builder b) {
        this.ledger = require(b.ledger, "a ledger");
        this.schemas = require(b.schemas, "a schema gate");
        this.idempotency = require(b.idempotency, "an idempotency gate (or the consumers and their claim store)");
        this.sender = require(b.sender, "a replay sender");
        this.payloads = require(b.payloads, "a payload store");
        this.clock = b.clock;
    }

    /** A builder; the clock defaults to the system's UTC clock, everything else must be given. */
    public static Builder builder() {
        return new Builder();
    }

    /** What a replay found and did: the record as it was before (empty when there was none), and the outcome. */
    public record Attempt(Optional<QuarantineRecord> before, ReplayOutcome outcome) {}

    /** Replays {@code quarantineId} on behalf of {@code actor}; with {@code dryRun}, only reports what would happen. */
    public ReplayOutcome replay(
            String quarantineId, Actor actor, String why, Optional<LeaseToken> fence, boolean dryRun) {
        return attempt(quarantineId, actor, why, fence, dryRun).outcome();
    }

    /** {@link #replay}, saying also what the record was before. */
    public Attempt attempt(String quarantineId, Actor actor, String why, Optional<LeaseToken> fence, boolean dryRun) {
        if (dryRun) {
            Optional<QuarantineRecord> found = ledger.find(quarantineId);
            return new Attempt(
                    found, found.map(this::dryRun).orElseGet(() -> new ReplayOutcome.NotFound(quarantineId)));
        }
        return attemptAll(List.of(quarantineId), actor, why, fence).get(quarantineId);
    }

    /**
     * Replays several dead letters: each through its checks, then the ready ones sent in batches per source queue.
     *
     * @return the outcome of each, by id, in the order given
     */
    public Map<String, ReplayOutcome> replayAll(
            List<String> quarantineIds, Actor actor, String why, Optional<LeaseToken> fence) {
        Map<String, ReplayOutcome> outcomes = new LinkedHashMap<>();
        attemptAll(quarantineIds, actor, why, fence).forEach((id, a) -> outcomes.put(id, a.outcome()));
        return outcomes;
    }

    /** {@link #replayAll}, saying also what each record was before. */
    public Map<String, Attempt> attemptAll(
            List<String> quarantineIds, Actor actor, String why, Optional<LeaseToken> fence) {
        Map<String, ReplayOutcome> outcomes = new LinkedHashMap<>();
        Map<String, Optional<QuarantineRecord>> before = new HashMap<>();
        Map<String, List<Ready>> readyByQueue = new LinkedHashMap<>();
        for (String id : quarantineIds) {
            Optional<QuarantineRecord> found = ledger.find(id);
            before.put(id, found);
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
        Map<String, Attempt> attempts = new LinkedHashMap<>();
        outcomes.forEach((id, outcome) -> attempts.put(id, new Attempt(before.get(id), outcome)));
        return attempts;
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
        IdempotencyGate.Verdict verdict = idempotency.check(moved.consumer(), body, clock.instant());
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

    private static <T> T require(T value, String what) {
        if (value == null) {
            throw new IllegalStateException("a replay service needs " + what);
        }
        return value;
    }

    /** Builds a {@link ReplayService}. */
    public static final class Builder {
        private QuarantineLedger ledger;
        private SchemaGate schemas;
        private IdempotencyGate idempotency;
        private ReplaySender sender;
        private PayloadStore payloads;
        private Clock clock = Clock.systemUTC();

        private Builder() {}

        public Builder ledger(QuarantineLedger ledger) {
            this.ledger = ledger;
            return this;
        }

        /** The schema check: the consumers' current schemas with their registered upcasters. */
        public Builder schemas(SchemaGate schemas) {
            this.schemas = schemas;
            return this;
        }

        public Builder idempotency(IdempotencyGate idempotency) {
            this.idempotency = idempotency;
            return this;
        }

        /** The idempotency check the consumers make themselves: their parsers, their claim store. */
        public Builder claimLookup(Map<String, ? extends IdempotentConsumer<?>> consumers, ClaimStore claims) {
            return idempotency(new ClaimLookupIdempotencyGate(consumers, claims));
        }

        public Builder sender(ReplaySender sender) {
            this.sender = sender;
            return this;
        }

        public Builder payloads(PayloadStore payloads) {
            this.payloads = payloads;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public ReplayService build() {
            return new ReplayService(this);
        }
    }

    private static ReplayOutcome conflict(QuarantineRecord r, Optional<LeaseToken> fence) {
        return new ReplayOutcome.Conflict(
                r.id(),
                "dead letter " + r.id() + " changed meanwhile"
                        + (fence.isPresent() ? " (or the sweeper's lease was taken over)" : "") + "; nothing was done");
    }
}
