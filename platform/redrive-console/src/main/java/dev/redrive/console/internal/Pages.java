package dev.redrive.console.internal;

import dev.redrive.console.ConsoleSources;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.FailureGroups;
import dev.redrive.core.operator.RouteStatus;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.DeadLetterSource.QueueDepth;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.ConflictResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The console's pages and actions. Every figure and every decision comes from the operator port (grouping from core's
 * {@link FailureGroups}, as {@code redrive list --group}); this class only arranges them for the templates.
 */
public final class Pages {

    /** How many dead letters a list shows; the total is always told. */
    static final int LIST_LIMIT = 200;
    /** How many time buckets the arrivals chart has. */
    static final int ARRIVAL_BUCKETS = 24;

    private final ConsoleSources sources;
    private final TemplateEngine templates;
    private final boolean readOnly;

    public Pages(ConsoleSources sources, TemplateEngine templates, boolean readOnly) {
        this.sources = sources;
        this.templates = templates;
        this.readOnly = readOnly;
    }

    /** {@code GET /}: every route's figures, replays, breakers and windows. */
    public void overview(Context ctx) {
        String sinceText = Objects.requireNonNullElse(ctx.queryParam("since"), "24h");
        Duration since = parse(() -> Format.parseAge(sinceText));
        Instant now = sources.clock().instant();
        List<Views.RouteRow> routes = new ArrayList<>();
        for (Route route : sources.routes()) {
            routes.add(routeRow(sources.operator().status(route, since), now));
        }
        List<Views.ReplayRow> replays = new ArrayList<>();
        for (Map.Entry<FailureClass, ReplayStats.Totals> e :
                sources.operator().replayTotals().entrySet()) {
            ReplayStats.Totals t = e.getValue();
            replays.add(new Views.ReplayRow(
                    e.getKey().name(),
                    t.sent(),
                    t.returned(),
                    String.format(Locale.ROOT, "%.1f%%", 100 * t.successRate())));
        }
        List<Views.BreakerRow> breakers = new ArrayList<>();
        sources.operator()
                .breakers()
                .forEach((dependency, b) -> breakers.add(new Views.BreakerRow(
                        dependency, b.status().name(), Format.at(b.openedAt()), Format.at(b.openUntil()), b.held())));
        List<Views.WindowRow> windows = sources.operator().windows().stream()
                .map(w -> new Views.WindowRow(
                        w.id(),
                        w.dependency(),
                        Format.at(w.start()),
                        Format.at(w.end()),
                        w.approvedBy(),
                        Objects.requireNonNullElse(w.reason(), ""),
                        !now.isBefore(w.start()) && now.isBefore(w.end())))
                .toList();
        render(
                ctx,
                "overview.jte",
                frame("Overview", "overview", ctx),
                new Views.Overview(sinceText, routes, replays, breakers, windows));
    }

    /** {@code GET /api/arrivals?queue=Q&since=24h}: a route's arrivals by class over time, for the chart (JSON). */
    public void arrivals(Context ctx) {
        String queue = ctx.queryParam("queue");
        if (queue == null
                || sources.routes().stream().noneMatch(r -> r.sourceQueue().equals(queue))) {
            throw new BadRequestResponse("queue must name a configured route's source queue");
        }
        Duration since = parse(() -> Format.parseAge(Objects.requireNonNullElse(ctx.queryParam("since"), "24h")));
        ctx.json(Arrivals.of(
                sources.operator(),
                queue,
                since,
                ARRIVAL_BUCKETS,
                sources.clock().instant()));
    }

    /** {@code GET /groups}: the filter's dead letters grouped by error type and reason. */
    public void groups(Context ctx) {
        Filter filter = Filter.from(ctx::queryParam);
        List<QuarantineRecord> records = sources.operator().list(parse(filter::query));
        List<Views.GroupRow> rows = FailureGroups.of(records).stream()
                .map(g -> new Views.GroupRow(
                        g.count(),
                        String.join(" | ", g.classes().stream().map(Enum::name).toList()),
                        g.errorType(),
                        g.reason(),
                        Format.at(g.firstSeen()),
                        Format.at(g.lastSeen()),
                        g.sampleId(),
                        "/dead-letters?" + filter.withErrorType(g.errorType()).queryString(),
                        List.copyOf(g.versions())))
                .toList();
        render(
                ctx,
                "groups.jte",
                frame("Groups", "groups", ctx),
                new Views.Groups(filter, choices(), records.size(), rows));
    }

    /** {@code GET /dead-letters}: the filter's dead letters, oldest first, up to {@value #LIST_LIMIT}. */
    public void letters(Context ctx) {
        Filter filter = Filter.from(ctx::queryParam);
        Instant now = sources.clock().instant();
        List<QuarantineRecord> records = sources.operator().list(parse(filter::query));
        List<Views.LetterRow> rows = records.stream()
                .limit(LIST_LIMIT)
                .map(r -> new Views.LetterRow(
                        r.id(),
                        r.state().name(),
                        r.classification().failureClass().name(),
                        r.classification().errorType(),
                        r.sourceQueue(),
                        Format.age(r.age(now)),
                        r.classification().reason()))
                .toList();
        render(
                ctx,
                "letters.jte",
                frame("Dead letters", "letters", ctx),
                new Views.Letters(filter, choices(), records.size(), rows, rows.size()));
    }

    /**
     * {@code POST /dead-letters/{id}/archive}: archives one dead letter with the operator's reason, as the operator
     * (the console's actor), through the operator port; then shows it again.
     */
    public void archive(Context ctx) {
        String id = ctx.pathParam("id");
        String reason = Objects.requireNonNullElse(ctx.formParam("reason"), "").strip();
        if (reason.isEmpty()) {
            throw new BadRequestResponse("archiving needs a reason");
        }
        ArchiveDecision.Outcome outcome = sources.operator()
                .archive(List.of(id), sources.actor().get(), reason, false)
                .get(id);
        if (outcome instanceof ArchiveDecision.NotFound) {
            throw new NotFoundResponse("no dead letter " + id);
        }
        if (!(outcome instanceof ArchiveDecision.Archived)) {
            throw new ConflictResponse("not archived: " + outcome);
        }
        ctx.redirect("/dead-letters/" + URLEncoder.encode(id, StandardCharsets.UTF_8), HttpStatus.SEE_OTHER);
    }

    /** The dead letter {@code id}, else a 404 naming it. */
    QuarantineRecord find(String id) {
        return sources.operator().show(id).orElseThrow(() -> new NotFoundResponse("no dead letter " + id));
    }

    private static Views.RouteRow routeRow(RouteStatus s, Instant now) {
        long unresolved = s.byState().entrySet().stream()
                .filter(e -> !e.getKey().resolved())
                .mapToLong(Map.Entry::getValue)
                .sum();
        return new Views.RouteRow(
                s.route().consumer(),
                s.route().sourceQueue(),
                s.route().deadLetterQueue(),
                depth(s.source()),
                depth(s.deadLetters()),
                unresolved,
                s.oldestUnresolved().map(r -> Format.age(r.age(now))).orElse("none"),
                s.oldestUnresolved().map(QuarantineRecord::id).orElse(""),
                s.arrivals().entrySet().stream()
                        .map(e -> new Views.Count(e.getKey().name(), e.getValue()))
                        .toList(),
                s.byState().entrySet().stream()
                        .map(e -> new Views.Count(e.getKey().name(), e.getValue()))
                        .toList());
    }

    private static String depth(QueueDepth d) {
        return d.visible() + " visible, " + d.inFlight() + " in flight, " + d.delayed() + " delayed";
    }

    private Views.Choices choices() {
        return new Views.Choices(
                sources.routes().stream().map(Route::sourceQueue).distinct().toList(),
                Arrays.stream(QuarantineState.values()).map(Enum::name).toList(),
                Arrays.stream(FailureClass.values()).map(Enum::name).toList());
    }

    Views.Frame frame(String title, String nav, Context ctx) {
        Sessions.Session session = ctx.attribute(Guard.SESSION_ATTRIBUTE);
        return new Views.Frame(title, nav, session == null ? "" : session.csrf(), readOnly, SavedViews.nav(ctx));
    }

    void render(Context ctx, String template, Views.Frame frame, Object view) {
        StringOutput out = new StringOutput();
        templates.render(template, Map.of("frame", frame, "view", view), out);
        ctx.html(out.toString());
    }

    private static <T> T parse(java.util.function.Supplier<T> reading) {
        try {
            return reading.get();
        } catch (IllegalArgumentException e) {
            throw new BadRequestResponse(e.getMessage());
        }
    }
}
