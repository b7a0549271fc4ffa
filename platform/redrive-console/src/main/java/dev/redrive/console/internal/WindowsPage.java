package dev.redrive.console.internal;

import dev.redrive.console.ConsoleSources;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.names.UnknownName;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.replay.MaintenanceWindow;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * {@code /windows}: the maintenance windows, a form to add one (checked by the operator port's
 * {@link OperatorPort#checkNewWindow}, the rule {@code redrive window add} applies), removing one, and holding the
 * breaker for a running window. Every action is the operator's, through the port; a refusal is the page again with the
 * port's message and the form as it was typed (nothing is lost).
 */
public final class WindowsPage {

    private final ConsoleSources sources;
    private final Rendering rendering;

    public WindowsPage(ConsoleSources sources, Rendering rendering) {
        this.sources = sources;
        this.rendering = rendering;
    }

    /** One window. */
    public record Row(
            String id,
            String dependency,
            String start,
            String end,
            String status,
            boolean holdsBreaker,
            String approvedBy,
            String reason,
            boolean canHold) {}

    /** The add form, as typed. */
    public record Form(
            String id, String dependency, String start, String end, String duration, boolean hold, String reason) {

        static Form empty() {
            return new Form("", "", "now", "", "2h", false, "");
        }
    }

    /**
     * The page.
     *
     * @param message      what the last action did, or empty
     * @param error        why the last action was refused, or empty
     * @param dependencies the dependencies to offer (the shared breakers and the windows'); others may be typed
     */
    public record View(List<Row> windows, Form form, List<String> dependencies, String message, String error) {}

    /** {@code GET /windows}. */
    public void page(Context ctx) {
        String message = "";
        if (ctx.queryParam("added") != null) {
            message = "Added window " + ctx.queryParam("added") + ".";
        } else if (ctx.queryParam("removed") != null) {
            message = "Removed window " + ctx.queryParam("removed") + ": from now on it approves nothing.";
        } else if (ctx.queryParam("held") != null) {
            message = holdMessage(ctx.queryParam("held"));
        }
        show(ctx, Form.empty(), message, "");
    }

    /** {@code POST /windows}: adds a window approved by the operator. */
    public void add(Context ctx) {
        Form form = new Form(
                field(ctx, "id"),
                field(ctx, "dependency"),
                field(ctx, "start"),
                field(ctx, "end"),
                field(ctx, "duration"),
                "yes".equals(ctx.formParam("hold")) || "on".equals(ctx.formParam("hold")),
                field(ctx, "reason"));
        MaintenanceWindow w;
        try {
            w = window(form);
            sources.operator().checkNewWindow(w);
            sources.operator().addWindow(w);
        } catch (IllegalArgumentException e) {
            ctx.status(HttpStatus.BAD_REQUEST);
            show(ctx, form, "", e.getMessage());
            return;
        }
        ctx.redirect("/windows?added=" + encode(w.id()), HttpStatus.SEE_OTHER);
    }

    /** {@code POST /windows/{id}/remove}. */
    public void remove(Context ctx) {
        String id = ctx.pathParam("id");
        if (!sources.operator().removeWindow(id)) {
            ctx.status(HttpStatus.NOT_FOUND);
            show(
                    ctx,
                    Form.empty(),
                    "",
                    UnknownName.message(
                            "maintenance window",
                            id,
                            sources.operator().windows().stream()
                                    .map(MaintenanceWindow::id)
                                    .toList(),
                            null));
            return;
        }
        ctx.redirect("/windows?removed=" + encode(id), HttpStatus.SEE_OTHER);
    }

    /** {@code POST /windows/{id}/hold}: holds the breaker of a running window's dependency until the window's end. */
    public void hold(Context ctx) {
        String id = ctx.pathParam("id");
        try {
            sources.operator().holdBreakerOpen(id);
        } catch (IllegalArgumentException e) {
            ctx.status(HttpStatus.CONFLICT);
            show(ctx, Form.empty(), "", e.getMessage());
            return;
        }
        ctx.redirect("/windows?held=" + encode(id), HttpStatus.SEE_OTHER);
    }

    private void show(Context ctx, Form form, String message, String error) {
        OperatorPort operator = sources.operator();
        Instant now = sources.clock().instant();
        Map<String, BreakerState> breakers = operator.breakers();
        List<MaintenanceWindow> windows = operator.windows();
        List<Row> rows = windows.stream()
                .map(w -> new Row(
                        w.id(),
                        w.dependency(),
                        Format.at(w.start()),
                        Format.at(w.end()),
                        now.isBefore(w.start()) ? "upcoming" : w.lastsAt(now) ? "active" : "over",
                        w.holdsBreaker(),
                        w.approvedBy(),
                        Objects.requireNonNullElse(w.reason(), ""),
                        w.lastsAt(now) && breakers.containsKey(w.dependency()) && !heldBy(breakers, w, now)))
                .toList();
        TreeSet<String> dependencies = new TreeSet<>(breakers.keySet());
        windows.forEach(w -> dependencies.add(w.dependency()));
        rendering.render(
                ctx,
                "windows.jte",
                rendering.frame("Maintenance windows", "windows", ctx),
                new View(rows, form, List.copyOf(dependencies), message, error));
    }

    /** Whether {@code w} holds its breaker now already (stored as holding it, and the breaker held past now). */
    private static boolean heldBy(Map<String, BreakerState> breakers, MaintenanceWindow w, Instant now) {
        BreakerState b = breakers.get(w.dependency());
        return w.holdsBreaker() && b.held() && b.openUntil().isAfter(now);
    }

    private String holdMessage(String id) {
        return sources.operator()
                .window(id)
                .map(w -> {
                    BreakerState b = sources.operator().breakers().get(w.dependency());
                    return "The " + w.dependency() + " circuit breaker is held OPEN until "
                            + Format.at(b == null ? null : b.openUntil())
                            + " in every sandbox (window " + id + "): no call reaches it, messages wait, replays "
                            + "are held; after the window one probe decides.";
                })
                .orElse("");
    }

    /** The window the form asks for, approved by the operator. */
    private MaintenanceWindow window(Form form) {
        if (form.dependency().isEmpty()) {
            throw new IllegalArgumentException("name the dependency the window covers");
        }
        if (form.reason().isEmpty()) {
            throw new IllegalArgumentException("give a reason: the change ticket, the vendor notice");
        }
        Instant now = sources.clock().instant();
        Instant start = time("start", form.start(), now);
        Instant end;
        if (!form.end().isEmpty()) {
            end = time("end", form.end(), now);
        } else if (!form.duration().isEmpty()) {
            Duration d = Format.parseAge(form.duration());
            end = start.plus(d);
        } else {
            throw new IllegalArgumentException("give an end or a duration");
        }
        if (!end.isAfter(start)) {
            throw new IllegalArgumentException("the window ends (" + end + ") before it starts (" + start + ")");
        }
        String id = form.id().isEmpty() ? MaintenanceWindow.generatedId(start) : form.id();
        return new MaintenanceWindow(
                id, form.dependency(), start, end, sources.actor().get().name(), form.reason(), form.hold());
    }

    /** {@code now}, or an ISO-8601 time with a zone or offset ({@code 2026-11-29T22:00:00Z}). */
    private static Instant time(String what, String text, Instant now) {
        if (text.isEmpty() || text.toLowerCase(Locale.ROOT).equals("now")) {
            return now;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    what + " is 'now' or a time with a zone or offset (2026-11-29T22:00:00Z), not '" + text + "'");
        }
    }

    private static String field(Context ctx, String name) {
        return Objects.requireNonNullElse(ctx.formParam(name), "").strip();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
