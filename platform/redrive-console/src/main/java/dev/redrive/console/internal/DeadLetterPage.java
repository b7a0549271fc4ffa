package dev.redrive.console.internal;

import dev.redrive.console.ConsoleSources;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.schema.PayloadRedactor;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The page of one dead letter ({@code GET /dead-letters/{id}}): its facts, its timeline (failures, arrival, every
 * audit entry, replays and reveals included, oldest first), its payload redacted by {@link PayloadRedactor} (the rule
 * {@code redrive show} uses), its attributes (secret-looking ones redacted), its claim, and what the schema and
 * idempotency checks would answer now (the operator port's dry-run replay of this one id). {@code POST
 * /dead-letters/{id}/reveal} records the reveal through the operator port first, then shows the payload in full once.
 */
public final class DeadLetterPage {

    private static final String DRY_RUN_REASON = "what the checks would answer now (console, dry run)";

    private final ConsoleSources sources;
    private final Pages pages;
    private final boolean readOnly;

    public DeadLetterPage(ConsoleSources sources, Pages pages, boolean readOnly) {
        this.sources = sources;
        this.pages = pages;
        this.readOnly = readOnly;
    }

    /** {@code GET /dead-letters/{id}}: the payload's sensitive fields redacted. */
    public void show(Context ctx) {
        QuarantineRecord r = pages.find(ctx.pathParam("id"));
        render(ctx, r, Optional.empty(), Optional.empty());
    }

    /**
     * {@code POST /dead-letters/{id}/reveal} (CSRF-checked, refused in read-only mode by the guard): records in the
     * audit trail, through the operator port, that the console's actor was shown the sensitive fields, then shows them
     * on this answer only; the next page view is redacted again.
     */
    public void reveal(Context ctx) {
        QuarantineRecord r = pages.find(ctx.pathParam("id"));
        Optional<String> body = sources.operator().payload(r);
        Optional<PayloadRedactor.Redaction> full =
                body.map(b -> sources.redactor().reveal(b));
        List<String> shown =
                new ArrayList<>(full.map(PayloadRedactor.Redaction::sensitive).orElse(List.of()));
        shown.addAll(PayloadRedactor.secretAttributePaths(r.attributes().keySet()));
        if (shown.isEmpty()) {
            throw new BadRequestResponse("dead letter " + r.id() + " has nothing redacted to reveal");
        }
        Actor person = sources.actor().get();
        QuarantineRecord recorded = sources.operator().recordReveal(r.id(), person, shown);
        render(ctx, recorded, Optional.of(person), Optional.of(body));
    }

    private void render(
            Context ctx, QuarantineRecord r, Optional<Actor> revealedTo, Optional<Optional<String>> knownBody) {
        Instant now = sources.clock().instant();
        Optional<String> body = knownBody.orElseGet(() -> sources.operator().payload(r));
        boolean revealed = revealedTo.isPresent();
        Optional<ClaimRecord> claim = Optional.empty();
        String claimProblem = "";
        if (r.idempotencyKey() != null) {
            try {
                claim = sources.operator().claim(r);
            } catch (IllegalStateException e) {
                claimProblem = "cannot be told: " + e.getMessage();
            }
        }
        ReplayOutcome outcome = sources.operator()
                .approveReplay(List.of(r.id()), sources.actor().get(), DRY_RUN_REASON, true)
                .get(r.id());
        DeadLetterView view = new DeadLetterView(
                r.id(),
                r.state().name(),
                r.consumer(),
                r.sourceQueue(),
                r.deadLetterQueue(),
                r.sourceMessageId(),
                Objects.requireNonNullElse(r.idempotencyKey(), "–"),
                Format.at(r.arrivedAt()),
                Format.age(r.age(now)),
                r.classification().failureClass().name(),
                r.classification().errorType(),
                r.classification().reason(),
                Objects.requireNonNullElse(r.classification().dependency(), "–"),
                Format.at(r.firstFailedAt()),
                Format.at(r.lastFailedAt()),
                r.receiveCount(),
                r.replayCount(),
                Objects.requireNonNullElse(r.note(), ""),
                payload(r, body, revealedTo),
                attributes(r, revealed),
                claim(r, claim, claimProblem),
                checks(outcome),
                timeline(r, claim),
                !readOnly && ArchiveDecision.ARCHIVABLE.contains(r.state()));
        pages.render(ctx, "dead-letter.jte", pages.frame(r.id(), "letters", ctx), view);
    }

    private DeadLetterView.Payload payload(QuarantineRecord r, Optional<String> body, Optional<Actor> revealedTo) {
        List<String> secretAttributes =
                PayloadRedactor.secretAttributePaths(r.attributes().keySet());
        String where = where(r.payload());
        String to = revealedTo.map(Actor::name).orElse("");
        if (body.isEmpty()) {
            return new DeadLetterView.Payload(
                    where,
                    "no payload is in the ledger any more",
                    List.of(),
                    secretAttributes,
                    false,
                    to,
                    !readOnly && revealedTo.isEmpty() && !secretAttributes.isEmpty());
        }
        PayloadRedactor.Redaction shown = revealedTo.isPresent()
                ? sources.redactor().reveal(body.get())
                : sources.redactor().redact(body.get());
        String masked = "\"" + PayloadRedactor.MASK + "\"";
        List<DeadLetterView.Line> lines = shown.shown()
                .lines()
                .map(l -> new DeadLetterView.Line(l, !shown.revealed() && l.contains(masked)))
                .toList();
        List<String> sensitive = new ArrayList<>(shown.sensitive());
        sensitive.addAll(secretAttributes);
        return new DeadLetterView.Payload(
                where,
                shown.basis(),
                lines,
                sensitive,
                shown.withheld(),
                to,
                !readOnly && revealedTo.isEmpty() && !sensitive.isEmpty());
    }

    private static String where(PayloadLocation location) {
        if (location instanceof PayloadLocation.Inline inline) {
            return "inline in the ledger, " + inline.body().length() + " characters";
        }
        if (location instanceof PayloadLocation.Aside aside) {
            return "kept aside (claim check) at " + aside.reference();
        }
        return "archived with the record to " + location.archiveReference() + "; the ledger keeps a tombstone";
    }

    private static List<DeadLetterView.Attribute> attributes(QuarantineRecord r, boolean revealed) {
        List<DeadLetterView.Attribute> rows = new ArrayList<>();
        for (Map.Entry<String, MessageAttribute> e : new TreeMap<>(r.attributes()).entrySet()) {
            MessageAttribute a = e.getValue();
            boolean secret = PayloadRedactor.secretAttribute(e.getKey());
            String value = a.binaryValue() == null
                    ? Objects.requireNonNullElse(a.stringValue(), "")
                    : Base64.getEncoder().encodeToString(a.binaryValue()) + " (base64)";
            rows.add(new DeadLetterView.Attribute(
                    e.getKey(), a.dataType(), secret && !revealed ? PayloadRedactor.MASK : value, secret && !revealed));
        }
        return rows;
    }

    private static DeadLetterView.Claim claim(QuarantineRecord r, Optional<ClaimRecord> claim, String problem) {
        if (r.idempotencyKey() == null) {
            return new DeadLetterView.Claim(
                    "–", "cannot be told: no idempotency key could be read from it", "–", "–", "–", "–");
        }
        if (!problem.isEmpty()) {
            return new DeadLetterView.Claim(r.idempotencyKey(), problem, "–", "–", "–", "–");
        }
        if (claim.isEmpty()) {
            return new DeadLetterView.Claim(
                    r.idempotencyKey(),
                    "not applied: no claim of its key counts (none was written, or it expired)",
                    "none",
                    "–",
                    "–",
                    "–");
        }
        ClaimRecord c = claim.get();
        String applied = c.status() == ClaimStatus.COMPLETED
                ? "applied: its claim completed under token " + c.fencingToken()
                : "not applied: its claim is " + c.status();
        return new DeadLetterView.Claim(
                r.idempotencyKey(),
                applied,
                c.status().name(),
                Long.toString(c.fencingToken()),
                Integer.toString(c.failureCount()),
                c.failure()
                        .map(f -> failure(f.classification()) + " at " + Format.at(f.lastFailedAt()))
                        .orElse("–"));
    }

    /** The dry-run outcome, in words: its kind first, then {@link ReplayOutcome#describe()}. */
    static DeadLetterView.Checks checks(ReplayOutcome o) {
        String verdict;
        if (o instanceof ReplayOutcome.Sent s) {
            verdict = "a replay would be sent: the schema check passes"
                    + (s.upcast().isEmpty() ? "" : " after an upcast") + " and the idempotency check finds it not "
                    + "applied";
        } else if (o instanceof ReplayOutcome.AlreadyApplied) {
            verdict = "already applied: the idempotency check finds its claim completed, nothing would be sent";
        } else if (o instanceof ReplayOutcome.Refused) {
            verdict = "a replay would be refused";
        } else if (o instanceof ReplayOutcome.Held) {
            verdict = "a replay would be held by its lane's pace or breaker";
        } else if (o instanceof ReplayOutcome.Deferred) {
            verdict = "its key is being processed right now";
        } else if (o instanceof ReplayOutcome.NotReplayable) {
            verdict = "not replayable from its state";
        } else if (o instanceof ReplayOutcome.Conflict) {
            verdict = "it changed while the checks ran";
        } else if (o instanceof ReplayOutcome.CheckFailed) {
            verdict = "its checks could not run now";
        } else {
            verdict = "not found";
        }
        return new DeadLetterView.Checks(verdict, o.describe());
    }

    private record Timed(Instant at, DeadLetterView.Event event) {}

    /**
     * Everything that happened to it, oldest first (events at the same instant keep this order): the failures of the
     * evidence (first and last) and the claim's last recorded failure when it is another, then every audit entry —
     * the arrival, state changes, replays, returns, archiving, reveals — each with who and why.
     */
    static List<DeadLetterView.Event> timeline(QuarantineRecord r, Optional<ClaimRecord> claim) {
        List<Timed> events = new ArrayList<>();
        String failure = failure(r.classification());
        if (r.firstFailedAt() != null) {
            events.add(new Timed(
                    r.firstFailedAt(),
                    new DeadLetterView.Event(
                            Format.at(r.firstFailedAt()),
                            "failure",
                            "first failure: " + failure,
                            r.consumer(),
                            r.classification().reason())));
        }
        if (r.lastFailedAt() != null && !r.lastFailedAt().equals(r.firstFailedAt())) {
            events.add(new Timed(
                    r.lastFailedAt(),
                    new DeadLetterView.Event(
                            Format.at(r.lastFailedAt()),
                            "failure",
                            "last failure, after " + r.receiveCount() + " receive(s): " + failure,
                            r.consumer(),
                            r.classification().reason())));
        }
        claim.flatMap(ClaimRecord::failure).ifPresent(f -> {
            if (!f.lastFailedAt().equals(r.lastFailedAt()) && !f.lastFailedAt().equals(r.firstFailedAt())) {
                events.add(new Timed(f.lastFailedAt(), claimFailure(f, claim.get())));
            }
        });
        boolean arrival = false;
        for (AuditEntry a : r.audit()) {
            arrival |= a.from() == null && a.transition();
            events.add(new Timed(a.at(), audit(a)));
        }
        if (!arrival) {
            events.add(new Timed(
                    r.arrivedAt(),
                    new DeadLetterView.Event(
                            Format.at(r.arrivedAt()), "arrival", "arrived in the ledger", "automation", "")));
        }
        events.sort(Comparator.comparing(Timed::at)); // stable: ties keep their order
        return events.stream().map(Timed::event).toList();
    }

    private static DeadLetterView.Event claimFailure(FailureRecord f, ClaimRecord c) {
        return new DeadLetterView.Event(
                Format.at(f.lastFailedAt()),
                "failure",
                "last failure its claim recorded (" + c.failureCount() + " of " + c.fencingToken()
                        + " attempt(s) failed): " + failure(f.classification()),
                c.key().consumer(),
                f.classification().reason());
    }

    private static DeadLetterView.Event audit(AuditEntry a) {
        String at = Format.at(a.at());
        String who = a.actor().name();
        if (!a.transition()) {
            return new DeadLetterView.Event(
                    at, "payload revealed", "payload revealed (state unchanged)", who, a.reason());
        }
        if (a.from() == null) {
            return new DeadLetterView.Event(at, "arrival", "arrived in the ledger as " + a.to(), who, a.reason());
        }
        String move = a.from() + " → " + a.to();
        if (a.from() == a.to()) {
            return new DeadLetterView.Event(at, "replay", "replay resumed in " + a.to(), who, a.reason());
        }
        if (a.to() == QuarantineState.REPLAYED) {
            return new DeadLetterView.Event(at, "replay", "replayed: " + move, who, a.reason());
        }
        if (a.from() == QuarantineState.REPLAYED) {
            return new DeadLetterView.Event(at, "returned", "the replay failed again: " + move, who, a.reason());
        }
        if (a.to() == QuarantineState.ARCHIVED) {
            return new DeadLetterView.Event(at, "archived", "archived: " + move, who, a.reason());
        }
        return new DeadLetterView.Event(at, "state change", move, who, a.reason());
    }

    private static String failure(Classification c) {
        return c.failureClass() + " " + c.errorType();
    }
}
