package dev.redrive.console.internal;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.QuarantineQuery;
import dev.redrive.core.quarantine.QuarantineState;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which dead letters a page shows, read from its URL and written back into its links, so a filtered page is a deep link
 * (the URL holds the filters). The same filters as {@code redrive list}: queue, state ({@code unresolved}, the default,
 * {@code all}, or states joined with {@code |}), failure class, error type, older than.
 *
 * @param queue     a source queue's name, or empty
 * @param state     as written in the URL
 * @param failureClass a class's name, or empty
 * @param errorType an error type, or empty
 * @param olderThan an age ({@code 2h}), or empty
 * @param from      arrived at or after this instant ({@code 2026-12-06T10:00:00Z}), or empty: a chart bucket's start
 * @param to        arrived before this instant, or empty: a chart bucket's end
 */
public record Filter(
        String queue, String state, String failureClass, String errorType, String olderThan, String from, String to) {

    /** A filter of any arrival time. */
    public Filter(String queue, String state, String failureClass, String errorType, String olderThan) {
        this(queue, state, failureClass, errorType, olderThan, "", "");
    }

    /** The filter of a URL's query parameters; absent ones are empty. */
    public static Filter from(Function<String, String> param) {
        return new Filter(
                clean(param.apply("queue")),
                clean(param.apply("state")).isEmpty() ? "unresolved" : clean(param.apply("state")),
                clean(param.apply("class")).toUpperCase(Locale.ROOT),
                clean(param.apply("errorType")),
                clean(param.apply("olderThan")),
                clean(param.apply("from")),
                clean(param.apply("to")));
    }

    /**
     * The operator port's query for this filter, without a limit (groups count every match).
     *
     * @throws IllegalArgumentException naming the parameter that is not understood
     */
    public QuarantineQuery query() {
        return new QuarantineQuery(
                optional(queue),
                states(),
                failureClass.isEmpty() ? Set.of() : Set.of(parsedClass()),
                olderThan.isEmpty() ? Optional.empty() : Optional.of(Format.parseAge(olderThan)),
                optional(errorType),
                Integer.MAX_VALUE,
                instant("from", from),
                instant("to", to));
    }

    /** This filter as a query string ({@code queue=...&state=...}), the parameters that are set only. */
    public String queryString() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("queue", queue);
        p.put("state", "unresolved".equals(state) ? "" : state);
        p.put("class", failureClass);
        p.put("errorType", errorType);
        p.put("olderThan", olderThan);
        p.put("from", from);
        p.put("to", to);
        return p.entrySet().stream()
                .filter(e -> !e.getValue().isEmpty())
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    /** This filter narrowed to one error type (a group's drill-down). */
    public Filter withErrorType(String type) {
        return new Filter(queue, state, failureClass, type, olderThan, from, to);
    }

    private FailureClass parsedClass() {
        try {
            return FailureClass.valueOf(failureClass);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "class must be one of " + EnumSet.allOf(FailureClass.class) + ", not '" + failureClass + "'");
        }
    }

    private Set<QuarantineState> states() {
        String s = state.toLowerCase(Locale.ROOT);
        if (s.equals("unresolved")) {
            return QuarantineQuery.unresolved();
        }
        if (s.equals("all")) {
            return EnumSet.allOf(QuarantineState.class);
        }
        Set<QuarantineState> states = EnumSet.noneOf(QuarantineState.class);
        for (String part : state.split("[|,]")) {
            try {
                states.add(QuarantineState.valueOf(part.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("state must be 'unresolved', 'all' or states joined with '|' ("
                        + EnumSet.allOf(QuarantineState.class) + "), not '" + part.strip() + "'");
            }
        }
        return states;
    }

    private static Optional<Instant> instant(String name, String text) {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    name + " must be an instant such as 2026-12-06T10:00:00Z, not '" + text + "'");
        }
    }

    private static Optional<String> optional(String s) {
        return s.isEmpty() ? Optional.empty() : Optional.of(s);
    }

    private static String clean(String s) {
        return s == null ? "" : s.strip();
    }
}
