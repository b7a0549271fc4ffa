package dev.redrive.core.replay;

import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.ProbeTicket;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
 * resumes where it was, and a REPLAYED record is never sent again. Sends are batched per source queue; a batch's
 * records are read in one call, checked up to {@link Builder#parallelism} at a time (never past the caller's lease),
 * and saved in batched writes, each record on its own version and fence.
 *
 * <p>With a {@linkplain Builder#pacing pace store}, replays are paced per lane ({@link ReplayPace}): a lane whose
 * breaker refuses calls, or that is booked up to its horizon, holds its dead letters untouched
 * ({@link ReplayOutcome.Held}); a lane whose breaker is due for a probe sends one replay as the probe (it takes the
 * probe lease and carries its {@link ProbeTicket}) and holds the rest; every other replay is sent with the delay that
 * makes it visible at its slot. The sweeper and a person's CLI book in
 * the same store, so together they stay within the rate.
 */
public final class ReplayService {

    private final QuarantineLedger ledger;
    private final ReplayChecks checks;
    private final ReplaySender sender;
    private final Clock clock;
    private final int parallelism;
    private final Optional<ReplayPacer> pacer;
    private final ClaimChecks claimChecks;

    private ReplayService(Builder b) {
        this.ledger = require(b.ledger, "a ledger");
        this.parallelism = b.parallelism;
        this.sender = require(b.sender, "a replay sender");
        this.clock = b.clock;
        this.pacer = Optional.ofNullable(b.paceStore)
                .map(store -> new ReplayPacer(store, b.pace, Optional.ofNullable(b.breakers), b.breakerPolicy));
        this.checks = new ReplayChecks(
                ledger,
                require(b.schemas, "a schema gate"),
                require(b.idempotency, "an idempotency gate (or the consumers and their claim store)"),
                require(b.payloads, "a payload store"),
                b.claimChecks,
                clock);
        this.claimChecks = b.claimChecks;
    }

    /**
     * Where the payloads of dead letters that are claim checks are read: the sweeper built on this service reads them
     * here too (the key of one that came without metadata, the whole payload for the archive), so both read one store.
     */
    public ClaimChecks claimChecks() {
        return claimChecks;
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
                    found,
                    found.map(r -> checks.dryRun(r, null)).orElseGet(() -> new ReplayOutcome.NotFound(quarantineId)));
        }
        return attemptAll(List.of(quarantineId), actor, why, fence).get(quarantineId);
    }

    /**
     * Replays {@code quarantineId} with an operator's {@code edit} of its payload, on the same path as any replay: the
     * edit is checked first (the consumer's current schema, as written; the same idempotency key as the original; a
     * refused one is {@link ReplayOutcome.Rejected} and changes nothing), then the same state changes, idempotency
     * check, pacing, attributes and marker, sending the edited body instead of the one kept. The record keeps its
     * original payload; the REPLAYED entry (or the one that settles it) carries the edit's reason and diff. An edit is
     * never kept for a later resume: if its send fails, the record goes back to QUARANTINED.
     *
     * @param dryRun only reports what would happen; changes nothing
     */
    public Attempt attemptEdited(String quarantineId, PayloadEdit edit, Actor actor, boolean dryRun) {
        Objects.requireNonNull(edit, "edit");
        if (dryRun) {
            Optional<QuarantineRecord> found = ledger.find(quarantineId);
            return new Attempt(
                    found,
                    found.map(r -> checks.dryRun(r, edit)).orElseGet(() -> new ReplayOutcome.NotFound(quarantineId)));
        }
        return attemptAll(List.of(quarantineId), actor, edit.reason(), Optional.empty(), Map.of(quarantineId, edit))
                .get(quarantineId);
    }

    /**
     * What the checks of an edit of {@code record}'s payload answer now (the schema, the key, the diff), changing
     * nothing: {@link #attemptEdited} runs the same checks again on the record as it is then.
     */
    public EditCheck checkEdit(QuarantineRecord record, String editedBody) {
        return checks.checkEdit(record, editedBody);
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
        return attemptAll(quarantineIds, actor, why, fence, Map.of());
    }

    private Map<String, Attempt> attemptAll(
            List<String> quarantineIds,
            Actor actor,
            String why,
            Optional<LeaseToken> fence,
            Map<String, PayloadEdit> edits) {
        Map<String, ReplayOutcome> outcomes = new LinkedHashMap<>();
        Map<String, Optional<QuarantineRecord>> before = new HashMap<>();
        Map<String, QuarantineRecord> found = ledger.findAll(quarantineIds);
        List<QuarantineRecord> toCheck = new ArrayList<>();
        for (String id : quarantineIds) {
            if (outcomes.containsKey(id)) {
                continue; // asked twice: replayed once
            }
            before.put(id, Optional.ofNullable(found.get(id)));
            if (!found.containsKey(id)) {
                outcomes.put(id, new ReplayOutcome.NotFound(id));
                continue;
            }
            toCheck.add(found.get(id));
            outcomes.put(id, null); // filled once decided (and sent)
        }
        Optional<ReplayPacer.Round> paced = pacer.map(p -> p.round(toCheck, sender::takesDelays, clock.instant()));
        if (paced.isPresent()) {
            Map<String, ReplayOutcome.Held> held = paced.get().held();
            outcomes.putAll(held);
            toCheck.removeIf(r -> held.containsKey(r.id()));
        }
        try {
            checkAndSend(toCheck, actor, why, fence, paced, edits, outcomes);
        } finally {
            paced.ifPresent(ReplayPacer.Round::finish);
        }
        Map<String, Attempt> attempts = new LinkedHashMap<>();
        outcomes.forEach((id, outcome) -> attempts.put(id, new Attempt(before.get(id), outcome)));
        return attempts;
    }

    private void checkAndSend(
            List<QuarantineRecord> toCheck,
            Actor actor,
            String why,
            Optional<LeaseToken> fence,
            Optional<ReplayPacer.Round> paced,
            Map<String, PayloadEdit> edits,
            Map<String, ReplayOutcome> outcomes) {
        Map<String, List<ReplayChecks.Ready>> readyByQueue = new LinkedHashMap<>();
        List<Optional<ReplayChecks.Decision>> decided = ParallelChecks.map(
                toCheck,
                r -> checks.decide(r, actor, why, edits.get(r.id())),
                parallelism,
                fence.map(LeaseToken::expiresAt),
                clock);
        List<ReplayChecks.Decision> decisions = new ArrayList<>();
        for (int i = 0; i < toCheck.size(); i++) {
            if (decided.get(i).isPresent()) {
                decisions.add(decided.get(i).get());
            } else {
                String id = toCheck.get(i).id();
                outcomes.put(
                        id,
                        new ReplayOutcome.Conflict(
                                id, "the sweeper's lease ended before its checks finished; nothing was done"));
            }
        }
        List<QuarantineRecord> toSave = new ArrayList<>();
        decisions.stream().filter(d -> d.toSave() != null).forEach(d -> toSave.add(d.toSave()));
        Map<String, QuarantineRecord> saved = toSave.isEmpty() ? Map.of() : ledger.saveAll(toSave, fence);
        for (ReplayChecks.Decision d : decisions) {
            String id = d.original().id();
            ReplayChecks.Checked checked = d.after(Optional.ofNullable(saved.get(id)), fence);
            if (checked instanceof ReplayChecks.Ready ready) {
                readyByQueue
                        .computeIfAbsent(ready.record().sourceQueue(), q -> new ArrayList<>())
                        .add(ready);
            } else if (checked instanceof ReplayChecks.Settled settled) {
                outcomes.put(id, settled.outcome());
            }
        }
        Map<String, Instant> slots = new HashMap<>();
        Map<String, ProbeTicket> probes = new HashMap<>();
        paced.ifPresent(round -> readyByQueue.values().stream()
                .flatMap(List::stream)
                .forEach(r -> {
                    slots.put(r.record().id(), round.slotFor(r.record()));
                    round.probeOf(r.record())
                            .ifPresent(t -> probes.put(r.record().id(), t));
                }));
        readyByQueue.forEach((queue, ready) -> send(queue, ready, new Sending(slots, probes), actor, fence, outcomes));
    }

    /** When each ready replay becomes visible, and which one is its breaker's probe (with the lease's ticket). */
    private record Sending(Map<String, Instant> slots, Map<String, ProbeTicket> probes) {

        /** What {@code r} is sent with: its attributes, its own marker and, for a probe, the lease's ticket. */
        Map<String, MessageAttribute> attributes(ReplayChecks.Ready r) {
            Map<String, MessageAttribute> attributes = new HashMap<>(r.record().attributes());
            attributes.put(
                    ReplayMarker.ATTRIBUTE,
                    MessageAttribute.ofString(new ReplayMarker(r.record().id(), r.replayCount()).encode()));
            attributes.remove(ProbeTicket.ATTRIBUTE); // an earlier replay's: never this one's lease
            ProbeTicket ticket = probes.get(r.record().id());
            if (ticket != null) {
                attributes.put(ProbeTicket.ATTRIBUTE, MessageAttribute.ofString(ticket.encode()));
            }
            return attributes;
        }
    }

    private void send(
            String queue,
            List<ReplayChecks.Ready> ready,
            Sending sending,
            Actor actor,
            Optional<LeaseToken> fence,
            Map<String, ReplayOutcome> outcomes) {
        for (int from = 0; from < ready.size(); from += 10) {
            List<ReplayChecks.Ready> chunk = ready.subList(from, Math.min(ready.size(), from + 10));
            List<ReplaySender.Outgoing> messages = new ArrayList<>();
            List<Duration> delays = new ArrayList<>();
            Instant sentAt = clock.instant();
            boolean delayable = sender.takesDelays(queue);
            Map<String, Instant> slots = sending.slots();
            for (ReplayChecks.Ready r : chunk) {
                Instant slot = slots.get(r.record().id());
                Duration delay = slot == null || !delayable || !slot.isAfter(sentAt)
                        ? Duration.ZERO
                        : Duration.between(sentAt, slot);
                delays.add(delay);
                messages.add(new ReplaySender.Outgoing(r.body(), sending.attributes(r), delay));
            }
            List<String> ids = sender.sendAll(queue, messages);
            List<QuarantineRecord> replayed = new ArrayList<>();
            for (int i = 0; i < chunk.size(); i++) {
                ReplayChecks.Ready r = chunk.get(i);
                String messageId = ids.get(i);
                if (messageId == null) {
                    boolean edited = !r.editNote().isEmpty();
                    outcomes.put(
                            r.record().id(),
                            new ReplayOutcome.Conflict(
                                    r.record().id(),
                                    "the send to " + queue + " failed; "
                                            + (edited
                                                    ? "an edit is not kept for a resume: it is back in QUARANTINED,"
                                                            + " nothing sent; edit and retry it again"
                                                    : "it stays in IDEMPOTENCY_CHECK for the next attempt")));
                    if (edited) {
                        replayed.add(r.record()
                                .moveTo(
                                        QuarantineState.QUARANTINED,
                                        actor,
                                        "the send of the edited payload to " + queue
                                                + " failed: back in QUARANTINED, nothing sent (an edit is not kept)",
                                        clock.instant()));
                    }
                    continue;
                }
                replayed.add(r.record()
                        .withReplayCount(r.replayCount())
                        .moveTo(
                                QuarantineState.REPLAYED,
                                actor,
                                "sent to " + queue + " as " + messageId
                                        + (r.upcast().isEmpty() ? "" : " after " + r.upcast())
                                        + (sending.probes()
                                                        .containsKey(r.record().id())
                                                ? ", the probe of the " + ReplayPace.laneOf(r.record()) + " breaker"
                                                : "")
                                        + (delays.get(i).isZero()
                                                ? ""
                                                : ", visible at "
                                                        + slots.get(r.record().id()) + " ("
                                                        + ReplayPace.laneOf(r.record()) + "'s replay pace)")
                                        + (r.editNote().isEmpty() ? "" : "; " + r.editNote()),
                                clock.instant()));
            }
            Map<String, QuarantineRecord> done = replayed.isEmpty() ? Map.of() : ledger.saveAll(replayed, fence);
            for (int i = 0; i < chunk.size(); i++) {
                ReplayChecks.Ready r = chunk.get(i);
                String messageId = ids.get(i);
                if (messageId == null) {
                    continue;
                }
                outcomes.put(
                        r.record().id(),
                        done.containsKey(r.record().id())
                                ? new ReplayOutcome.Sent(
                                        r.record().id(),
                                        queue,
                                        messageId,
                                        r.replayCount(),
                                        r.upcast(),
                                        false,
                                        delays.get(i))
                                : new ReplayOutcome.Conflict(
                                        r.record().id(),
                                        "sent to " + queue + " as " + messageId + ", but dead letter "
                                                + r.record().id() + " changed meanwhile (its return may be quarantined"
                                                + " already"
                                                + (fence.isPresent()
                                                        ? ", or the sweeper's lease was" + " taken over"
                                                        : "")
                                                + "); it was not marked REPLAYED"));
            }
        }
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
        private ClaimChecks claimChecks = ClaimChecks.NONE;
        private Clock clock = Clock.systemUTC();
        private int parallelism = 1;
        private ReplayPaceStore paceStore;
        private ReplayPace pace = ReplayPace.DEFAULT;
        private BreakerStore breakers;
        private BreakerPolicy breakerPolicy = BreakerPolicy.DEFAULT;

        private Builder() {}

        /**
         * Paces replays per lane, booking slots in {@code store} (shared by every sweeper and CLI); without it, replays
         * are sent as fast as they are checked.
         */
        public Builder pacing(ReplayPaceStore store) {
            this.paceStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /** The rates and horizon of the pacing; {@link ReplayPace#DEFAULT} unless given. */
        public Builder pace(ReplayPace pace) {
            this.pace = Objects.requireNonNull(pace, "pace");
            return this;
        }

        /**
         * The dependencies' circuit breakers: while a dependency's breaker refuses calls (OPEN in its period, held, or
         * a probe holding its lease), the paced replays of its lane are held; once it is due for a probe, one replay
         * takes the probe lease (of {@link BreakerPolicy#DEFAULT}'s length) and is the probe. A breaker that cannot be
         * read lets them through, as the consumers' breakers do.
         */
        public Builder breakers(BreakerStore breakers) {
            return breakers(breakers, BreakerPolicy.DEFAULT);
        }

        /** {@link #breakers(BreakerStore)}, a replay's probe lease lasting {@code policy}'s. */
        public Builder breakers(BreakerStore breakers, BreakerPolicy policy) {
            this.breakers = Objects.requireNonNull(breakers, "breakers");
            this.breakerPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * How many records of a batch are checked at once (schema check, claim lookup, payload read), on threads
         * started for the batch and bounded by the caller's lease; 1 (the default) checks them one at a time.
         */
        public Builder parallelism(int parallelism) {
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism must be positive");
            }
            this.parallelism = parallelism;
            return this;
        }

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
        public Builder claimLookup(Map<String, ? extends KeyReader> consumers, ClaimStore claims) {
            return idempotency(new ClaimLookupIdempotencyGate(consumers, claims));
        }

        /**
         * The same check, refusing a replay later than {@code claimHorizon} after the dead letter arrived (its claim
         * may have expired: see {@link ClaimLookupIdempotencyGate}).
         */
        public Builder claimLookup(
                Map<String, ? extends KeyReader> consumers, ClaimStore claims, Duration claimHorizon) {
            return idempotency(new ClaimLookupIdempotencyGate(consumers, claims, claimHorizon));
        }

        public Builder sender(ReplaySender sender) {
            this.sender = sender;
            return this;
        }

        public Builder payloads(PayloadStore payloads) {
            this.payloads = payloads;
            return this;
        }

        /**
         * Where the payloads of dead letters that are claim checks are read (and an upcast one checked in again); by
         * default none, every body being its payload. The sweeper built on this service reads them here too.
         */
        public Builder claimChecks(ClaimChecks claimChecks) {
            this.claimChecks = Objects.requireNonNull(claimChecks, "claimChecks");
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
}
