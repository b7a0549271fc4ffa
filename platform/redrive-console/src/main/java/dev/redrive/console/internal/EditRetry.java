package dev.redrive.console.internal;

import dev.redrive.console.ConsoleSources;
import dev.redrive.core.operator.EditedReplay;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.EditCheck;
import dev.redrive.core.replay.ReplayOutcome;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Edit and retry: {@code GET /dead-letters/{id}/edit} says what editing means and asks for the explicit step that opens
 * the editor (it shows the real payload, sensitive fields included: opening it counts as revealing it); {@code POST
 * /dead-letters/{id}/edit} with {@code step=open} shows the payload in a textarea, {@code step=check} runs the edit's
 * dry run through the operator port (the schema answer, the key check, what would happen, the diff) and {@code
 * step=send} replays the edit as the operator, with a required reason, only for the very text a passing check saw; then
 * it goes back to the dead letter, whose timeline shows the reason and the diff. The payload travels in POST bodies
 * only, never in a URL. Every rule is the port's ({@code OperatorPort.replayEdited}); this class only presents.
 */
public final class EditRetry {

    private final ConsoleSources sources;
    private final Rendering rendering;

    public EditRetry(ConsoleSources sources, Rendering rendering) {
        this.sources = sources;
        this.rendering = rendering;
    }

    /** Whether the dead letter page offers edit and retry for a dead letter in {@code state}: one not yet resolved. */
    public static boolean offered(String state) {
        return !QuarantineState.valueOf(state).resolved();
    }

    /** What the edit page shows at each step. */
    public record Page(
            String id,
            String consumer,
            String state,
            String failure,
            String idempotencyKey,
            boolean editable,
            boolean opened,
            String payload,
            String reason,
            Answers answers,
            String message) {

        /** The dead letter's own page. */
        public String back() {
            return "/dead-letters/" + URLEncoder.encode(id, StandardCharsets.UTF_8);
        }

        /** Where the edit's forms post. */
        public String action() {
            return back() + "/edit";
        }
    }

    /**
     * What the check (a dry run) answered.
     *
     * @param passed  whether the edit may be sent: the send step is offered, for exactly the text checked ({@code
     *                checked}, its digest)
     * @param outcome what would happen, in words
     */
    public record Answers(String schema, String key, String diff, String outcome, boolean passed, String checked) {}

    /** {@code GET /dead-letters/{id}/edit}: what editing means, and the explicit step that opens the editor. */
    public void page(Context ctx) {
        QuarantineRecord r = find(ctx.pathParam("id"));
        render(ctx, HttpStatus.OK, page(r, false, null, "", null, ""));
    }

    /** {@code POST /dead-letters/{id}/edit}: the open, check or send step ({@code step}). */
    public void step(Context ctx) {
        QuarantineRecord r = find(ctx.pathParam("id"));
        String step = Objects.requireNonNullElse(ctx.formParam("step"), "");
        if (!editable(r)) {
            render(
                    ctx,
                    HttpStatus.CONFLICT,
                    page(r, false, null, "", null, "it is " + r.state() + ": nothing to edit"));
            return;
        }
        String reason = Objects.requireNonNullElse(ctx.formParam("reason"), "").strip();
        switch (step) {
            case "open" -> {
                String payload = sources.operator()
                        .payload(r)
                        .orElseThrow(() -> new NotFoundResponse("dead letter " + r.id() + " keeps no payload"));
                // The editor shows the payload as it is: a reveal, recorded (as the dead-letter page's) before it
                // shows.
                sources.operator()
                        .recordReveal(
                                r.id(),
                                sources.actor().get(),
                                sources.redactor().reveal(payload).sensitive());
                render(ctx, HttpStatus.OK, page(r, true, payload, reason, null, ""));
            }
            case "check" -> check(ctx, r, edited(ctx), reason);
            case "send" -> send(ctx, r, edited(ctx), reason);
            default -> throw new BadRequestResponse("step must be open, check or send, not '" + step + "'");
        }
    }

    private void check(Context ctx, QuarantineRecord r, String edited, String reason) {
        EditedReplay dry =
                sources.operator().replayEdited(r.id(), edited, sources.actor().get(), reason, true);
        render(ctx, HttpStatus.OK, page(r, true, edited, reason, answers(dry, edited), ""));
    }

    private void send(Context ctx, QuarantineRecord r, String edited, String reason) {
        if (!digest(edited).equals(ctx.formParam("checked"))) {
            render(
                    ctx,
                    HttpStatus.CONFLICT,
                    page(
                            r,
                            true,
                            edited,
                            reason,
                            null,
                            "check the edit first: only the text a passing check saw is sent,"
                                    + " and this text has not been checked (or changed since its check)"));
            return;
        }
        if (reason.isEmpty()) {
            EditedReplay dry = sources.operator()
                    .replayEdited(r.id(), edited, sources.actor().get(), "", true);
            render(
                    ctx,
                    HttpStatus.BAD_REQUEST,
                    page(
                            r,
                            true,
                            edited,
                            reason,
                            answers(dry, edited),
                            "sending needs a reason: what was corrected, and why"));
            return;
        }
        EditedReplay done =
                sources.operator().replayEdited(r.id(), edited, sources.actor().get(), reason, false);
        ReplayOutcome outcome = done.outcome();
        if (outcome instanceof ReplayOutcome.Sent || outcome instanceof ReplayOutcome.AlreadyApplied) {
            ctx.redirect(page(r, false, null, "", null, "").back(), HttpStatus.SEE_OTHER);
            return;
        }
        QuarantineRecord now = sources.operator().show(r.id()).orElse(r);
        render(
                ctx,
                HttpStatus.UNPROCESSABLE_CONTENT,
                page(now, editable(now), edited, reason, answers(done, edited), "not sent: " + outcome.describe()));
    }

    private static Answers answers(EditedReplay result, String edited) {
        EditCheck c = result.checks().orElse(null);
        ReplayOutcome o = result.outcome();
        boolean passed = o instanceof ReplayOutcome.Sent || o instanceof ReplayOutcome.AlreadyApplied;
        return new Answers(
                c == null ? "not checked" : c.schema(),
                c == null ? "not checked" : c.key(),
                c == null || c.diff().isEmpty() ? "(the original cannot be read)" : c.diff(),
                o.describe(),
                passed,
                passed ? digest(edited) : "");
    }

    private String edited(Context ctx) {
        String payload = ctx.formParam("payload");
        if (payload == null) {
            throw new BadRequestResponse("the edited payload is missing (form field 'payload')");
        }
        return payload.replace("\r\n", "\n"); // a textarea posts CRLF line ends; the payload had LF
    }

    private Page page(
            QuarantineRecord r, boolean opened, String payload, String reason, Answers answers, String message) {
        return new Page(
                r.id(),
                r.consumer(),
                r.state().name(),
                r.classification().failureClass() + " " + r.classification().errorType() + ": "
                        + r.classification().reason(),
                Objects.requireNonNullElse(r.idempotencyKey(), "–"),
                editable(r),
                opened,
                payload,
                reason,
                answers,
                message);
    }

    private boolean editable(QuarantineRecord r) {
        return !rendering.readOnly() && !r.state().resolved() && !r.archivedToStore();
    }

    private QuarantineRecord find(String id) {
        return sources.operator().show(id).orElseThrow(() -> new NotFoundResponse("no dead letter " + id));
    }

    private void render(Context ctx, HttpStatus status, Page page) {
        ctx.status(status);
        rendering.render(ctx, "edit.jte", rendering.frame("Edit and retry " + page.id(), "letters", ctx), page);
    }

    /** The digest a passing check hands to the send step: the send goes only for the very text checked. */
    static String digest(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
