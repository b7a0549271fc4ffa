package dev.redrive.core.replay;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Printable;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The checks of one replay, the same as a first delivery's: {@code QUARANTINED → UNDER_REVIEW → SCHEMA_CHECK →
 * IDEMPOTENCY_CHECK}, then ready to send, or settled here ({@code ARCHIVED} when incompatible or unsafe, {@code
 * REPLAYED} when already applied). Each step is in the audit trail; the record is saved once the checks have passed and
 * before anything is sent ({@link #decide} says what to save, so a batch of replays is saved in one batched write). A
 * dry run runs the same checks and changes nothing.
 */
final class ReplayChecks {

    private final QuarantineLedger ledger;
    private final SchemaGate schemas;
    private final IdempotencyGate idempotency;
    private final PayloadStore payloads;
    private final ClaimChecks claimChecks;
    private final Clock clock;

    ReplayChecks(
            QuarantineLedger ledger,
            SchemaGate schemas,
            IdempotencyGate idempotency,
            PayloadStore payloads,
            ClaimChecks claimChecks,
            Clock clock) {
        this.ledger = ledger;
        this.schemas = schemas;
        this.idempotency = idempotency;
        this.payloads = payloads;
        this.claimChecks = claimChecks;
        this.clock = clock;
    }

    /**
     * A record's payload as the checks read it. The record keeps its body as it came (for a claim check: the pointer,
     * which a replay sends again); the checks read what the consumer would, the payload behind the pointer.
     */
    private ClaimChecks.Read payloadOf(QuarantineRecord r) {
        return claimChecks.read(bodyOf(r), r.stringAttributes());
    }

    /** Why a record's payload cannot be checked; null when it can. */
    private static String unreadable(ClaimChecks.Read read) {
        return read.missing() == null ? null : "its claim check's payload cannot be read: " + read.missing();
    }

    /** What the checks decided about one record. */
    sealed interface Checked permits Ready, Settled {}

    /**
     * A record that passed both checks, saved in IDEMPOTENCY_CHECK, with the body and marker to send.
     *
     * @param editNote what its REPLAYED audit entry adds for an operator's edit (the reason and the diff); empty for
     *                 a replay of the payload as kept
     */
    record Ready(QuarantineRecord record, String body, String upcast, int replayCount, String editNote)
            implements Checked {}

    /** The replay ends here, with this outcome. */
    record Settled(ReplayOutcome outcome) implements Checked {}

    /**
     * How long a record another actor saved for sending counts as in flight: its send (one SQS call, bounded by its
     * timeouts) and its REPLAYED save take seconds. Within it, nobody else resumes it; after it, the sender is taken
     * to have stopped (a crash between the send and the save), and a resume may send a second copy, which the
     * consumer's claim receives as a duplicate.
     */
    static final Duration SEND_IN_FLIGHT = Duration.ofMinutes(2);

    /**
     * What the checks decided before anything is written: the record to save ({@code null} when nothing changed), and
     * what follows from the record as saved. The caller saves every decision of a batch in one batched write, and a
     * decision whose save was refused is a {@linkplain #conflict conflict}.
     */
    record Decision(QuarantineRecord original, QuarantineRecord toSave, Function<QuarantineRecord, Checked> then) {
        /** What follows from {@code saved} (the record as stored; empty when its save was refused). */
        Checked after(Optional<QuarantineRecord> saved, Optional<LeaseToken> fence) {
            if (toSave == null) {
                return then.apply(original);
            }
            return saved.map(then).orElseGet(() -> new Settled(conflict(original, fence)));
        }
    }

    /** Runs the checks and saves their result; returns a {@link Ready} or the outcome that ends the replay here. */
    Checked check(QuarantineRecord r, Actor actor, String why, Optional<LeaseToken> fence) {
        Decision d = decide(r, actor, why, null);
        return d.after(d.toSave() == null ? Optional.of(r) : ledger.save(d.toSave(), fence), fence);
    }

    /**
     * Runs the checks on {@code r}; saves nothing (but an upcast body kept aside). A check that fails for this record
     * (a store it reads throws) settles it as {@link ReplayOutcome.CheckFailed} with the reason, changing nothing, so
     * that one record never fails the rest of its batch.
     *
     * @param edit an operator's edit to send instead of the payload kept (checked first: a refused one changes
     *             nothing); null for none
     */
    Decision decide(QuarantineRecord r, Actor actor, String why, PayloadEdit edit) {
        try {
            return decideChecked(r, actor, why, edit);
        } catch (RuntimeException e) {
            ReplayOutcome failed = new ReplayOutcome.CheckFailed(r.id(), Printable.thrown(e));
            return new Decision(r, null, x -> new Settled(failed));
        }
    }

    private Decision decideChecked(QuarantineRecord r, Actor actor, String why, PayloadEdit edit) {
        if (r.state().resolved() || r.archivedToStore()) {
            ReplayOutcome notReplayable = new ReplayOutcome.NotReplayable(
                    r.id(), "it is " + r.state() + (r.note().isEmpty() ? "" : " (" + r.note() + ")"));
            return new Decision(r, null, x -> new Settled(notReplayable));
        }
        Optional<AuditEntry> sending = sendingByAnother(r, actor, clock.instant());
        if (sending.isPresent()) {
            ReplayOutcome deferred = new ReplayOutcome.Deferred(
                    r.id(),
                    "a replay by " + sending.get().actor().name(),
                    sending.get().at().plus(SEND_IN_FLIGHT));
            return new Decision(r, null, x -> new Settled(deferred));
        }
        Optional<AuditEntry> unsentEdit = edit == null ? pendingEdit(r) : Optional.empty();
        if (unsentEdit.isPresent()) {
            String back = backFromUnsentEdit(unsentEdit.get());
            return new Decision(
                    r,
                    r.moveTo(QuarantineState.QUARANTINED, actor, back, clock.instant()),
                    saved -> new Settled(new ReplayOutcome.NotReplayable(r.id(), back)));
        }
        ClaimChecks.Read read = payloadOf(r);
        if (read.forbidden()) {
            ReplayOutcome refused = new ReplayOutcome.CheckFailed(r.id(), unreadable(read));
            return new Decision(r, null, x -> new Settled(refused)); // not archived: a fix to the grants reads it
        }
        String body = read.payload();
        String sent = read.stored();
        String editNote = "";
        if (edit != null) {
            EditCheck check = checkEdit(r, read, edit.body());
            if (!check.passed()) {
                ReplayOutcome rejected =
                        new ReplayOutcome.Rejected(r.id(), check.refusal().orElseThrow(), false);
                return new Decision(r, null, x -> new Settled(rejected));
            }
            body = edit.body();
            sent = edit.body();
            editNote = edit.auditNote(check.diff());
        }
        QuarantineRecord moved = r;
        String upcast = "";
        if (moved.state() == QuarantineState.QUARANTINED) {
            moved = moved.moveTo(QuarantineState.UNDER_REVIEW, actor, why, clock.instant());
        }
        if (moved.state() == QuarantineState.UNDER_REVIEW) {
            moved = moved.moveTo(
                    QuarantineState.SCHEMA_CHECK,
                    actor,
                    edit == null
                            ? "checking against the consumer's current schema"
                            : "checking the edited payload against the consumer's current schema",
                    clock.instant());
        }
        String editReady = PayloadEdit.AUDIT_MARK + ": its schema is current and it keeps the key; it is sent instead"
                + " of the original, which is kept";
        if (edit != null && moved.state() == QuarantineState.SCHEMA_CHECK) {
            moved = moved.moveTo(QuarantineState.IDEMPOTENCY_CHECK, actor, editReady, clock.instant());
        } else if (edit != null) { // in IDEMPOTENCY_CHECK already: the edit is saved as a resume of its own
            moved = moved.resumed(actor, editReady, clock.instant());
        }
        if (moved.state() == QuarantineState.SCHEMA_CHECK) {
            SchemaGate.Verdict schema =
                    read.missing() != null ? new SchemaGate.Incompatible(unreadable(read)) : schemaCheck(moved, body);
            if (schema instanceof SchemaGate.Incompatible incompatible) {
                return new Decision(
                        r,
                        moved.moveTo(
                                QuarantineState.ARCHIVED,
                                actor,
                                "incompatible: " + incompatible.reason(),
                                clock.instant()),
                        saved -> new Settled(new ReplayOutcome.Refused(r.id(), incompatible.reason(), false)));
            }
            if (schema instanceof SchemaGate.Upcast u) {
                upcast = upcastNote(u);
                body = u.body();
                moved = keepingUpcast(moved, u, read.claimCheck());
                sent = read.claimCheck() ? moved.body() : u.body();
            }
            moved = moved.moveTo(
                    QuarantineState.IDEMPOTENCY_CHECK,
                    actor,
                    upcast.isEmpty() ? "schema is current" : upcast,
                    clock.instant());
        }
        if (body == null) { // resumed in IDEMPOTENCY_CHECK, and the payload has gone since its schema check
            String missing = unreadable(read);
            return new Decision(
                    r,
                    moved.moveTo(QuarantineState.ARCHIVED, actor, "unsafe to replay: " + missing, clock.instant()),
                    saved -> new Settled(new ReplayOutcome.Refused(r.id(), missing, false)));
        }
        IdempotencyGate.Verdict verdict =
                idempotency.check(moved.consumer(), body, r.stringAttributes(), r.arrivedAt(), clock.instant());
        if (verdict instanceof IdempotencyGate.AlreadyApplied applied) {
            return new Decision(
                    r,
                    moved.moveTo(
                            QuarantineState.REPLAYED,
                            actor,
                            "already applied under " + applied.key() + " (token " + applied.fencingToken()
                                    + "); nothing sent" + (editNote.isEmpty() ? "" : "; " + editNote),
                            clock.instant()),
                    saved -> new Settled(new ReplayOutcome.AlreadyApplied(r.id(), applied.key(), false)));
        }
        if (verdict instanceof IdempotencyGate.Unsafe unsafe) {
            return new Decision(
                    r,
                    moved.moveTo(
                            QuarantineState.ARCHIVED,
                            actor,
                            "unsafe to replay: " + unsafe.reason() + (editNote.isEmpty() ? "" : "; " + editNote),
                            clock.instant()),
                    saved -> new Settled(new ReplayOutcome.Refused(r.id(), unsafe.reason(), false)));
        }
        boolean resuming = moved == r; // it was in IDEMPOTENCY_CHECK already: a Deferred or a failed send before
        if (verdict instanceof IdempotencyGate.InProgress busy && edit != null) { // an edit is never kept for later
            return new Decision(
                    r, null, x -> new Settled(new ReplayOutcome.Deferred(r.id(), busy.key(), busy.leaseExpiresAt())));
        }
        if (verdict instanceof IdempotencyGate.InProgress busy) {
            return new Decision(
                    r,
                    resuming ? null : moved,
                    saved -> new Settled(new ReplayOutcome.Deferred(r.id(), busy.key(), busy.leaseExpiresAt())));
        }
        // Saved before anything is sent, a resume too: of two actors resuming at once only one gets past this write.
        String sentBody = sent;
        String sentUpcast = upcast;
        String sentEdit = editNote;
        QuarantineRecord toSave = resuming ? r.resumed(actor, "resuming the replay: " + why, clock.instant()) : moved;
        return new Decision(
                r, toSave, saved -> new Ready(saved, sentBody, sentUpcast, saved.replayCount() + 1, sentEdit));
    }

    /**
     * The audit entry with which an operator's edit readied {@code r} for sending, when that is where it stands: in
     * IDEMPOTENCY_CHECK, its last entry the edit's. Its send failed or its sender stopped; the edited body is not kept.
     */
    static Optional<AuditEntry> pendingEdit(QuarantineRecord r) {
        if (r.state() != QuarantineState.IDEMPOTENCY_CHECK || r.audit().isEmpty()) {
            return Optional.empty();
        }
        AuditEntry last = r.audit().get(r.audit().size() - 1);
        return last.reason().startsWith(PayloadEdit.AUDIT_MARK) ? Optional.of(last) : Optional.empty();
    }

    private static String backFromUnsentEdit(AuditEntry edit) {
        return "the edited payload " + edit.actor().name() + " readied at " + edit.at()
                + " was not sent (its send failed or its sender stopped), and an edit is not kept for a resume: back in"
                + " QUARANTINED, nothing sent; edit and retry it again, or replay the original";
    }

    /**
     * The checks an operator's edit of {@code r}'s payload must pass before anything else: it is readable by the
     * consumer's current schema as written (not through an upcaster: it is sent as written), and it keeps the
     * original's idempotency key. Changes nothing.
     */
    EditCheck checkEdit(QuarantineRecord r, String edited) {
        return checkEdit(r, payloadOf(r), edited);
    }

    /** The sensitive fields of either payload, whose values an edit's diff must not show. */
    private Set<String> sensitivePaths(QuarantineRecord r, String original, String edited) {
        Set<String> paths = new HashSet<>(schemas.sensitivePaths(r.consumer(), original));
        paths.addAll(schemas.sensitivePaths(r.consumer(), edited));
        return paths;
    }

    private EditCheck checkEdit(QuarantineRecord r, ClaimChecks.Read read, String edited) {
        if (read.claimCheck()) {
            return new EditCheck(
                    "not checked",
                    "not checked",
                    "",
                    Optional.of(
                            "dead letter " + r.id() + " came as a claim check (its payload is kept in the claim-check"
                                    + " store); an edit of one is not supported: archive it and send the corrected message by"
                                    + " hand"));
        }
        String original = read.payload();
        String diff =
                original == null ? "" : PayloadDiff.between(original, edited, sensitivePaths(r, original, edited));
        java.util.List<String> refusals = new java.util.ArrayList<>();
        if (edited.equals(original)) {
            refusals.add("the edited payload is the original: nothing was corrected (replay it as it is instead)");
        }
        String schema = "current";
        SchemaGate.Verdict verdict = schemaCheck(r, edited);
        if (verdict instanceof SchemaGate.Incompatible incompatible) {
            schema = incompatible.reason();
            refusals.add("the edited payload fails the consumer's current schema: " + incompatible.reason());
        } else if (verdict instanceof SchemaGate.Upcast u) {
            schema = "schema version v" + u.fromVersion() + ", not the current v" + u.toVersion();
            refusals.add("the edited payload is of schema version v" + u.fromVersion()
                    + ", which the consumer's upcasters turn into v" + u.toVersion() + "; an edit is sent as written,"
                    + " so write it in the current version (v" + u.toVersion() + ")");
        }
        KeyRead before = original == null ? new KeyRead(Optional.empty(), "") : readKey(r, original);
        Optional<String> oldKey = before.key().or(r::key);
        KeyRead after = readKey(r, edited);
        String key;
        if (after.key().isEmpty()) {
            key = "none read from the edited payload" + after.problem()
                    + oldKey.map(k -> "; the original's is " + k).orElse("");
            refusals.add("the consumer reads no idempotency key from the edited payload" + after.problem()
                    + oldKey.map(k -> " (the original's is " + k + ")").orElse("") + "; an edit must keep the key");
        } else if (oldKey.isEmpty()) {
            key = "the original's cannot be read" + before.problem() + "; the edited payload's is "
                    + after.key().get();
            refusals.add("the original's idempotency key cannot be read" + before.problem()
                    + ", so whether the edit keeps it cannot be told (the edited payload's is "
                    + after.key().get()
                    + "); an edit must keep the key");
        } else if (!oldKey.get().equals(after.key().get())) {
            key = "changed from " + oldKey.get() + " to " + after.key().get();
            refusals.add("the edit changes the idempotency key from " + oldKey.get() + " to "
                    + after.key().get()
                    + "; an edit must keep the key (a message with another key is another message: send it through"
                    + " its producer)");
        } else {
            key = "kept: " + oldKey.get();
        }
        return new EditCheck(
                schema, key, diff, refusals.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", refusals)));
    }

    /** The key the consumer reads from {@code body}, or why none: {@code problem} reads as a clause (or is empty). */
    private record KeyRead(Optional<String> key, String problem) {}

    private KeyRead readKey(QuarantineRecord r, String body) {
        try {
            return new KeyRead(idempotency.keyOf(r.consumer(), body, r.stringAttributes()), "");
        } catch (IllegalArgumentException invalid) { // the reader read a key that is no valid key: said, not sent
            return new KeyRead(Optional.empty(), " (" + invalid.getMessage() + ")");
        }
    }

    /**
     * The save with which another actor readied {@code r} for sending, if it is recent enough that the send may still
     * be in flight: the last transition of its audit trail moved it into (or resumed it in) IDEMPOTENCY_CHECK (a reveal
     * of its payload since is not a transition).
     */
    private static Optional<AuditEntry> sendingByAnother(QuarantineRecord r, Actor actor, Instant now) {
        if (r.state() != QuarantineState.IDEMPOTENCY_CHECK || r.audit().isEmpty()) {
            return Optional.empty();
        }
        AuditEntry last = r.audit().stream()
                .filter(AuditEntry::transition)
                .reduce((a, b) -> b)
                .orElse(null);
        if (last == null) {
            return Optional.empty();
        }
        boolean recent = last.at().plus(SEND_IN_FLIGHT).isAfter(now);
        return last.to() == QuarantineState.IDEMPOTENCY_CHECK
                        && recent
                        && !last.actor().equals(actor)
                ? Optional.of(last)
                : Optional.empty();
    }

    /** What a replay of {@code r} would do; a check that fails for it is its {@link ReplayOutcome.CheckFailed}. */
    ReplayOutcome dryRun(QuarantineRecord r, PayloadEdit edit) {
        try {
            return dryRunChecked(r, edit);
        } catch (RuntimeException e) {
            return new ReplayOutcome.CheckFailed(r.id(), Printable.thrown(e));
        }
    }

    private ReplayOutcome dryRunChecked(QuarantineRecord r, PayloadEdit edit) {
        if (r.state().resolved() || r.archivedToStore()) {
            return new ReplayOutcome.NotReplayable(r.id(), "it is " + r.state());
        }
        Optional<AuditEntry> unsentEdit = edit == null ? pendingEdit(r) : Optional.empty();
        if (unsentEdit.isPresent()) {
            return new ReplayOutcome.NotReplayable(
                    r.id(), "it would be moved back to QUARANTINED: " + backFromUnsentEdit(unsentEdit.get()));
        }
        ClaimChecks.Read read = payloadOf(r);
        if (read.forbidden()) {
            return new ReplayOutcome.CheckFailed(r.id(), unreadable(read));
        }
        if (edit != null) {
            EditCheck check = checkEdit(r, read, edit.body());
            if (!check.passed()) {
                return new ReplayOutcome.Rejected(r.id(), check.refusal().orElseThrow(), true);
            }
        }
        if (edit == null && read.missing() != null) {
            return new ReplayOutcome.Refused(r.id(), unreadable(read), true);
        }
        String body = edit == null ? read.payload() : edit.body();
        String upcast = "";
        if (edit == null && r.state().ordinal() <= QuarantineState.SCHEMA_CHECK.ordinal()) {
            SchemaGate.Verdict schema = schemaCheck(r, body);
            if (schema instanceof SchemaGate.Incompatible incompatible) {
                return new ReplayOutcome.Refused(r.id(), incompatible.reason(), true);
            }
            if (schema instanceof SchemaGate.Upcast u) {
                upcast = upcastNote(u);
                body = u.body();
            }
        }
        IdempotencyGate.Verdict verdict =
                idempotency.check(r.consumer(), body, r.stringAttributes(), r.arrivedAt(), clock.instant());
        if (verdict instanceof IdempotencyGate.AlreadyApplied applied) {
            return new ReplayOutcome.AlreadyApplied(r.id(), applied.key(), true);
        }
        if (verdict instanceof IdempotencyGate.InProgress busy) {
            return new ReplayOutcome.Deferred(r.id(), busy.key(), busy.leaseExpiresAt());
        }
        if (verdict instanceof IdempotencyGate.Unsafe unsafe) {
            return new ReplayOutcome.Refused(r.id(), unsafe.reason(), true);
        }
        return new ReplayOutcome.Sent(r.id(), r.sourceQueue(), "", r.replayCount() + 1, upcast, true, Duration.ZERO);
    }

    /**
     * The schema check of {@code r}'s payload. A check that throws is named by its type alone: a parser's or an
     * upcaster's message may quote the payload, which never goes into an outcome or a log.
     */
    private SchemaGate.Verdict schemaCheck(QuarantineRecord r, String body) {
        try {
            return schemas.check(r.consumer(), body);
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "the schema check of " + r.consumer() + " threw "
                            + e.getClass().getName() + " (its message is left out: it may quote the payload)",
                    e);
        }
    }

    private static String upcastNote(SchemaGate.Upcast u) {
        return "upcast v" + u.fromVersion() + " to v" + u.toVersion();
    }

    /**
     * {@code r} keeping the upcast body where it kept the original: inline, or aside under a name of its own ({@code
     * <id>/v<version>}; the original stays where it was), or, for a claim check, as a claim check of its own. A replay
     * resumed from IDEMPOTENCY_CHECK skips the schema check, so it must find the body that passed it.
     */
    private QuarantineRecord keepingUpcast(QuarantineRecord r, SchemaGate.Upcast u, boolean claimCheck) {
        if (claimCheck) {
            // It came as a claim check and stays one: the upcast payload is checked in, and its pointer replaces the
            // original's (whose payload the store's lifecycle expires).
            ClaimChecks.ClaimCheck check = claimChecks.checkIn(u.body());
            Map<String, MessageAttribute> attributes = new HashMap<>(r.attributes());
            attributes.putAll(check.messageAttributes());
            return r.withPayload(new PayloadLocation.Inline(check.body())).withAttributes(attributes);
        }
        if (r.bodyRef() != null) {
            return r.withPayload(new PayloadLocation.Aside(payloads.put(r.id() + "/v" + u.toVersion(), u.body())));
        }
        return r.withBody(u.body());
    }

    /** Every record that is not yet archived keeps its payload, inline or aside. */
    private String bodyOf(QuarantineRecord r) {
        return payloads.bodyOf(r)
                .orElseThrow(() -> new IllegalStateException("dead letter " + r.id()
                        + " keeps no payload (neither inline nor a reference); nothing can be replayed"));
    }

    static ReplayOutcome conflict(QuarantineRecord r, Optional<LeaseToken> fence) {
        return new ReplayOutcome.Conflict(
                r.id(),
                "dead letter " + r.id() + " changed meanwhile"
                        + (fence.isPresent() ? " (or the sweeper's lease was taken over)" : "") + "; nothing was done");
    }
}
