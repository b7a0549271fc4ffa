package dev.redrive.console.internal;

import dev.redrive.console.ConsoleSources;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.replay.MaintenanceWindow;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code /breakers}: each shared circuit breaker with its state, token, open period, the windows holding it and its
 * history, and two actions, each the operator's through the port: end a hold ({@link OperatorPort#releaseBreaker}) and
 * ask for a probe ({@link OperatorPort#probeBreaker}). A refusal is the page again with the port's message (409), never
 * a 500.
 */
public final class BreakersPage {

    private final ConsoleSources sources;
    private final Rendering rendering;

    public BreakersPage(ConsoleSources sources, Rendering rendering) {
        this.sources = sources;
        this.rendering = rendering;
    }

    /** One entry of a breaker's history. */
    public record Transition(String at, String ago, String from, String to, long token, String reason) {}

    /** One breaker. */
    public record Row(
            String dependency,
            String state,
            long token,
            String openedAt,
            String openUntil,
            String nextProbe,
            boolean held,
            List<String> heldBy,
            List<String> holdsLater,
            boolean releasable,
            boolean probeable,
            List<Transition> history) {}

    /** The page: the breakers, what the last action did, why it was refused. */
    public record View(List<Row> breakers, String message, String error) {}

    /** {@code GET /breakers}. */
    public void page(Context ctx) {
        String message = "";
        String released = ctx.queryParam("released");
        String probed = ctx.queryParam("probed");
        if (released != null) {
            String windows = ctx.queryParam("windows");
            message = "Released the " + released + " circuit breaker"
                    + (windows == null || windows.isEmpty()
                            ? ""
                            : ": " + windows + " no longer holds it (it still approves replays)")
                    + "; the next call, a consumer's or a replay's, probes.";
        } else if (probed != null) {
            message = "The " + probed + " circuit breaker's open period ends now: the next call, a consumer's or a "
                    + "replay's, probes.";
        }
        show(ctx, message, "");
    }

    /** {@code POST /breakers/{dependency}/release}. */
    public void release(Context ctx) {
        String dependency = ctx.pathParam("dependency");
        List<String> stopped;
        try {
            stopped = sources.operator()
                    .releaseBreaker(dependency, sources.actor().get());
        } catch (IllegalArgumentException e) {
            refuse(ctx, e);
            return;
        }
        ctx.redirect(
                "/breakers?released=" + encode(dependency) + "&windows=" + encode(String.join(", ", stopped)),
                HttpStatus.SEE_OTHER);
    }

    /** {@code POST /breakers/{dependency}/probe}. */
    public void probe(Context ctx) {
        String dependency = ctx.pathParam("dependency");
        try {
            sources.operator().probeBreaker(dependency, sources.actor().get());
        } catch (IllegalArgumentException e) {
            refuse(ctx, e);
            return;
        }
        ctx.redirect("/breakers?probed=" + encode(dependency), HttpStatus.SEE_OTHER);
    }

    private void refuse(Context ctx, IllegalArgumentException e) {
        ctx.status(HttpStatus.CONFLICT);
        show(ctx, "", e.getMessage());
    }

    private void show(Context ctx, String message, String error) {
        OperatorPort operator = sources.operator();
        Instant now = sources.clock().instant();
        List<MaintenanceWindow> windows = operator.windows();
        Map<String, List<BreakerTransition>> histories = operator.breakerHistories();
        List<Row> rows = new ArrayList<>();
        operator.breakers().forEach((dependency, b) -> {
            List<String> heldBy = BreakerHolds.holders(windows, dependency, now).stream()
                    .map(MaintenanceWindow::id)
                    .toList();
            List<String> later = windows.stream()
                    .filter(w -> w.holdsBreaker() && w.dependency().equals(dependency) && now.isBefore(w.start()))
                    .map(w -> w.id() + " from " + Format.at(w.start()))
                    .toList();
            boolean held = b.held() && b.openUntil().isAfter(now);
            rows.add(new Row(
                    dependency,
                    b.status().name(),
                    b.token(),
                    Format.at(b.openedAt()),
                    Format.at(b.openUntil()),
                    nextProbe(b, now),
                    held,
                    heldBy,
                    later,
                    held || !heldBy.isEmpty(),
                    b.status() != BreakerState.Status.CLOSED,
                    histories.getOrDefault(dependency, List.of()).stream()
                            .map(t -> new Transition(
                                    Format.at(t.at()),
                                    Format.age(Duration.between(t.at(), now)),
                                    t.from().name(),
                                    t.to().name(),
                                    t.token(),
                                    t.reason()))
                            .toList()));
        });
        rendering.render(
                ctx,
                "breakers.jte",
                rendering.frame("Circuit breakers", "breakers", ctx),
                new View(rows, message, error));
    }

    /** When {@code b} lets its next probe through, in words. */
    private static String nextProbe(BreakerState b, Instant now) {
        return switch (b.status()) {
            case CLOSED -> "–";
            case OPEN -> now.isBefore(b.openUntil()) ? "in " + Format.age(Duration.between(now, b.openUntil())) : "now";
            case HALF_OPEN ->
                now.isBefore(b.probeLeaseUntil())
                        ? "probing, lease " + Format.age(Duration.between(now, b.probeLeaseUntil()))
                        : "now (the probe's lease lapsed)";
        };
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
