package dev.redrive.console.internal;

import java.util.List;

/** What the templates render: plain values, formatted already, so a template holds no logic beyond loops and ifs. */
public final class Views {

    private Views() {}

    /**
     * What every page's frame needs.
     *
     * @param nav      the navigation entry to mark current
     * @param csrf     the session's CSRF token, for the page's forms
     * @param readOnly whether write controls are hidden
     * @param saved    the operator's saved views and the page's URL (to save it as a view)
     */
    public record Frame(String title, String nav, String csrf, boolean readOnly, SavedViews.Nav saved) {

        /** A frame without saved views. */
        public Frame(String title, String nav, String csrf, boolean readOnly) {
            this(title, nav, csrf, readOnly, SavedViews.Nav.NONE);
        }
    }

    /** A name and a count. */
    public record Count(String name, long count) {}

    /** One route on the overview. */
    public record RouteRow(
            String consumer,
            String sourceQueue,
            String deadLetterQueue,
            String sourceDepth,
            String deadLetterDepth,
            long unresolved,
            String oldestAge,
            String oldestId,
            List<Count> arrivals,
            List<Count> byState) {}

    /** Replays of one failure class. */
    public record ReplayRow(String failureClass, long sent, long returned, String successRate) {}

    /** One circuit breaker. */
    public record BreakerRow(String dependency, String status, String openedAt, String openUntil, boolean held) {}

    /** One maintenance window. */
    public record WindowRow(
            String id, String dependency, String start, String end, String approvedBy, String reason, boolean active) {}

    /** The version of the uPlot WebJar the pages load (the pom's {@code uplot.version}; a test checks it is there). */
    public static final String UPLOT_VERSION = "1.6.30";

    /** The overview page. */
    public record Overview(
            String since,
            List<RouteRow> routes,
            List<ReplayRow> replays,
            List<BreakerRow> breakers,
            List<WindowRow> windows) {

        /** uPlot's script, served from its WebJar by this console. */
        public String uplotJs() {
            return "/webjars/uplot/" + UPLOT_VERSION + "/dist/uPlot.iife.min.js";
        }

        /** uPlot's style sheet. */
        public String uplotCss() {
            return "/webjars/uplot/" + UPLOT_VERSION + "/dist/uPlot.min.css";
        }
    }

    /** One failure group. */
    public record GroupRow(
            long count,
            String classes,
            String errorType,
            String reason,
            String firstSeen,
            String lastSeen,
            String sampleId,
            String membersLink,
            List<String> versions) {}

    /** The choices of the filter form. */
    public record Choices(List<String> queues, List<String> states, List<String> classes) {}

    /** The groups page. */
    public record Groups(Filter filter, Choices choices, long total, List<GroupRow> groups) {}

    /** One dead letter in a list. */
    public record LetterRow(
            String id, String state, String failureClass, String errorType, String queue, String age, String reason) {}

    /** The list of dead letters of a filter. */
    public record Letters(Filter filter, Choices choices, long total, List<LetterRow> letters, int shown) {}
}
