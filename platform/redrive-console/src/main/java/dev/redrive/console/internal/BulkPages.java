package dev.redrive.console.internal;

import dev.redrive.console.ConsoleSources;
import dev.redrive.console.internal.RunJournal.Kind;
import dev.redrive.console.internal.RunJournal.Line;
import dev.redrive.console.internal.RunJournal.Phase;
import dev.redrive.console.internal.RunJournal.Run;
import dev.redrive.core.quarantine.QuarantineRecord;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The pages and actions of bulk runs ({@link BulkRuns}): a dry run of a group or a selection, the run page (dry-run
 * report and confirmation, then progress and final tallies), its progress as JSON for the page's script, stop and
 * resume, and the list of runs. A read-only console has none of them.
 */
public final class BulkPages {

    /** How many per-dead-letter lines a run page lists; the counts are always whole. */
    static final int LINES_SHOWN = 500;

    private final ConsoleSources sources;
    private final BulkRuns runs;
    private final TemplateEngine templates;
    private final boolean readOnly;

    public BulkPages(ConsoleSources sources, BulkRuns runs, TemplateEngine templates, boolean readOnly) {
        this.sources = sources;
        this.runs = runs;
        this.templates = templates;
        this.readOnly = readOnly;
    }

    /**
     * {@code POST /bulk/dry-run}: {@code kind} (replay or archive) of {@code scope=selection} (the ticked {@code id}s)
     * or {@code scope=group} (the group {@code groupErrorType}/{@code groupReason} of the filter in the form); dry-runs
     * it, freezes the ids into a run and shows the run.
     */
    public void dryRun(Context ctx) {
        refuseReadOnly();
        Kind kind = kind(ctx.formParam("kind"));
        Filter filter = Filter.from(ctx::formParam);
        String scopeName = Objects.requireNonNullElse(ctx.formParam("scope"), "");
        List<String> ids;
        List<QuarantineRecord> records = new ArrayList<>();
        String scope;
        String back;
        if (scopeName.equals("selection")) {
            ids = ctx.formParams("id").stream()
                    .map(String::strip)
                    .filter(s -> !s.isEmpty())
                    .distinct()
                    .toList();
            if (ids.isEmpty()) {
                throw new BadRequestResponse(
                        "tick at least one dead letter for a bulk " + kind.word() + "; nothing was dry-run");
            }
            ids.forEach(id -> sources.operator().show(id).ifPresent(records::add));
            scope = "a selection of " + ids.size() + " dead letter(s)";
            back = "/dead-letters" + query(filter);
        } else if (scopeName.equals("group")) {
            String errorType = Objects.requireNonNullElse(ctx.formParam("groupErrorType"), "");
            String reason = Objects.requireNonNullElse(ctx.formParam("groupReason"), "");
            if (errorType.isEmpty()) {
                throw new BadRequestResponse("a group is named by groupErrorType (and groupReason)");
            }
            List<QuarantineRecord> listed;
            try {
                listed = sources.operator().list(filter.withErrorType(errorType).query());
            } catch (IllegalArgumentException e) {
                throw new BadRequestResponse(e.getMessage());
            }
            listed.stream()
                    .filter(r -> r.classification().reason().equals(reason))
                    .forEach(records::add);
            if (records.isEmpty()) {
                throw new BadRequestResponse("no dead letter of the group " + errorType + ": " + reason
                        + " matches the filter now (replayed or archived meanwhile?); nothing was dry-run");
            }
            ids = records.stream().map(QuarantineRecord::id).toList();
            String described = filter.queryString();
            scope = "the group " + errorType + ": " + reason
                    + (described.isEmpty() ? " (unresolved)" : " (" + described.replace("&", ", ") + ")");
            back = "/groups" + query(filter);
        } else {
            throw new BadRequestResponse("scope must be 'selection' or 'group', not '" + scopeName + "'");
        }
        String id = runs.dryRun(kind, scope, back, ids, records);
        ctx.redirect("/bulk/runs/" + id, HttpStatus.SEE_OTHER);
    }

    /** {@code GET /bulk/runs}: every run, the unfinished (resumable) ones first. */
    public void list(Context ctx) {
        refuseReadOnly();
        List<BulkViews.RunRow> all = runs.all().stream().map(BulkPages::row).toList();
        List<BulkViews.RunRow> unfinished =
                all.stream().filter(BulkViews.RunRow::resumable).toList();
        render(ctx, "bulk/runs.jte", "Bulk runs", new BulkViews.Runs(unfinished, all));
    }

    /** {@code GET /bulk/runs/{id}}: the run's dry-run report and confirmation form, or its progress. */
    public void run(Context ctx) {
        refuseReadOnly();
        BulkRuns.Snapshot s = snapshot(ctx);
        Run run = s.run();
        boolean awaiting = run.phase() == Phase.AWAITING_CONFIRMATION;
        List<Line> lines = awaiting ? run.dryRun() : s.outcomes();
        Map<String, Integer> guardedClasses = new LinkedHashMap<>();
        run.guarded().forEach(g -> guardedClasses.merge(g.failureClass(), 1, Integer::sum));
        BulkViews.RunPage view = new BulkViews.RunPage(
                run.id(),
                run.kind().word(),
                run.kind() == Kind.REPLAY ? "Replay" : "Archive",
                run.scope(),
                run.back(),
                run.phase().name(),
                run.createdAt(),
                run.createdBy(),
                s.total(),
                s.done(),
                s.total() - s.done(),
                awaiting,
                run.phase().active(),
                run.phase().resumable(),
                s.stopRequested(),
                run.reason(),
                run.confirmedBy(),
                String.join(", ", run.allowed().stream().map(Enum::name).toList()),
                run.resumes(),
                run.failure(),
                tallies(s.dryRunTallies(), true),
                tallies(s.tallies(), awaiting),
                run.guarded().stream()
                        .map(g -> new BulkViews.Warning(
                                g.id(),
                                g.failureClass(),
                                g.id() + " failed as " + g.failureClass() + " (" + g.why()
                                        + "); it fails the same way unless the cause was fixed"))
                        .toList(),
                guardedClasses.entrySet().stream()
                        .map(e -> new BulkViews.GuardedClass(e.getKey(), e.getValue()))
                        .toList(),
                lines.stream()
                        .limit(LINES_SHOWN)
                        .map(l -> new BulkViews.Outcome(
                                l.id(),
                                l.outcome(),
                                BulkOutcome.valueOf(l.outcome()).label(awaiting),
                                l.text()))
                        .toList(),
                Math.min(lines.size(), LINES_SHOWN),
                sources.actor().get().name());
        render(ctx, "bulk/run.jte", (awaiting ? "Dry run: " : "") + view.verb() + " " + run.id(), view);
    }

    /** {@code GET /api/bulk/runs/{id}}: the run's progress (JSON), what the run page's script polls. */
    public void progress(Context ctx) {
        refuseReadOnly();
        BulkRuns.Snapshot s = snapshot(ctx);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", s.run().id());
        json.put("kind", s.run().kind().word());
        json.put("phase", s.run().phase().name());
        json.put("active", s.run().phase().active());
        json.put("stopRequested", s.stopRequested());
        json.put("total", s.total());
        json.put("done", s.done());
        json.put("left", s.total() - s.done());
        json.put("tallies", tallies(s.tallies(), s.run().phase() == Phase.AWAITING_CONFIRMATION));
        json.put("failure", s.run().failure());
        ctx.json(json);
    }

    /** {@code POST /bulk/runs/{id}/confirm}: runs the frozen ids, with the typed {@code reason} (required). */
    public void confirm(Context ctx) {
        refuseReadOnly();
        String id = ctx.pathParam("id");
        runs.confirm(id, ctx.formParam("reason"), ctx.formParams("allow"));
        ctx.redirect("/bulk/runs/" + id, HttpStatus.SEE_OTHER);
    }

    /** {@code POST /bulk/runs/{id}/stop}: stops the run between two dead letters. */
    public void stop(Context ctx) {
        refuseReadOnly();
        String id = ctx.pathParam("id");
        runs.stop(id);
        ctx.redirect("/bulk/runs/" + id, HttpStatus.SEE_OTHER);
    }

    /** {@code POST /bulk/runs/{id}/resume}: runs the frozen ids that have no outcome yet. */
    public void resume(Context ctx) {
        refuseReadOnly();
        String id = ctx.pathParam("id");
        runs.resume(id);
        ctx.redirect("/bulk/runs/" + id, HttpStatus.SEE_OTHER);
    }

    private BulkRuns.Snapshot snapshot(Context ctx) {
        String id = ctx.pathParam("id");
        return runs.find(id)
                .orElseThrow(() -> new NotFoundResponse("no bulk run " + id + " (the runs are listed at /bulk/runs)"));
    }

    private static List<BulkViews.Tally> tallies(Map<BulkOutcome, Integer> counts, boolean dryRun) {
        return counts.entrySet().stream()
                .map(e -> new BulkViews.Tally(e.getKey().name(), e.getKey().label(dryRun), e.getValue()))
                .toList();
    }

    private static BulkViews.RunRow row(BulkRuns.Snapshot s) {
        Run run = s.run();
        return new BulkViews.RunRow(
                run.id(),
                run.kind().word(),
                run.scope(),
                run.phase().name(),
                s.done(),
                s.total(),
                run.createdAt(),
                run.confirmedBy().isEmpty() ? run.createdBy() : run.confirmedBy(),
                run.phase().resumable());
    }

    private static Kind kind(String kind) {
        String k = Objects.requireNonNullElse(kind, "").strip().toLowerCase(Locale.ROOT);
        return switch (k) {
            case "replay" -> Kind.REPLAY;
            case "archive" -> Kind.ARCHIVE;
            default -> throw new BadRequestResponse("kind must be 'replay' or 'archive', not '" + k + "'");
        };
    }

    private static String query(Filter filter) {
        String q = filter.queryString();
        return q.isEmpty() ? "" : "?" + q;
    }

    private void refuseReadOnly() {
        if (readOnly) {
            throw new ForbiddenResponse("this console is read-only: bulk replays and archives are off");
        }
    }

    private void render(Context ctx, String template, String title, Object view) {
        Sessions.Session session = ctx.attribute(Guard.SESSION_ATTRIBUTE);
        Views.Frame frame = new Views.Frame(title, "runs", session == null ? "" : session.csrf(), readOnly);
        StringOutput out = new StringOutput();
        templates.render(template, Map.of("frame", frame, "view", view), out);
        ctx.html(out.toString());
    }
}
