package dev.redrive.cli;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.QuarantineQuery;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Parses which dead letters a command works on into core's {@link QuarantineQuery}, and says a query in the filter's
 * words. {@code replay} and {@code archive} take {@code --filter} text:
 * {@code queue=orders-receipts,class=TRANSIENT,older-than=2h,error-type=Timeout,state=QUARANTINED|UNDER_REVIEW};
 * {@code list} builds its query from options with {@link #states} and the rest. What matches is core's to decide.
 */
final class RecordFilter {

    /** The keys {@code --filter} accepts. */
    static final List<String> KEYS = List.of("queue", "state", "class", "error-type", "older-than");

    private RecordFilter() {}

    /**
     * Parses {@code --filter} text; states default to {@code defaultStates}; at most {@code limit} dead letters. Bad
     * text is a usage error.
     */
    static QuarantineQuery parse(String text, Set<QuarantineState> defaultStates, int limit) {
        if (text == null || text.isBlank()) {
            throw CliException.usage("--filter is empty (e.g. --filter queue=orders-receipts,class=TRANSIENT)");
        }
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0 || eq == part.length() - 1) {
                throw CliException.usage(
                        "malformed filter '" + part.strip() + "': expected key=value with a key of " + KEYS);
            }
            String key = part.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            if (!KEYS.contains(key)) {
                throw CliException.usage("unknown filter key '" + key + "': " + withSuggestion(key, KEYS) + KEYS);
            }
            if (pairs.put(key, part.substring(eq + 1).strip()) != null) {
                throw CliException.usage("filter key '" + key + "' given twice");
            }
        }
        Duration olderThan = null;
        if (pairs.containsKey("older-than")) {
            try {
                olderThan = Durations.parse(pairs.get("older-than"));
            } catch (IllegalArgumentException e) {
                throw CliException.usage("filter older-than: " + e.getMessage());
            }
        }
        return new QuarantineQuery(
                Optional.ofNullable(pairs.get("queue")),
                pairs.containsKey("state") ? states(pairs.get("state")) : defaultStates,
                pairs.containsKey("class") ? classes(pairs.get("class")) : Set.of(),
                Optional.ofNullable(olderThan),
                Optional.ofNullable(pairs.get("error-type")),
                limit);
    }

    /** States from {@code A|B}, {@code A+B} or {@code A;B} (or {@code all}, {@code unresolved}). */
    static Set<QuarantineState> states(String text) {
        Set<QuarantineState> states = EnumSet.noneOf(QuarantineState.class);
        for (String s : text.split("[|+;]")) {
            String name = s.strip().toUpperCase(Locale.ROOT).replace('-', '_');
            if (name.equals("ALL")) {
                states.addAll(EnumSet.allOf(QuarantineState.class));
            } else if (name.equals("UNRESOLVED")) {
                states.addAll(QuarantineQuery.unresolved());
            } else {
                try {
                    states.add(QuarantineState.valueOf(name));
                } catch (IllegalArgumentException e) {
                    List<String> known = new ArrayList<>(EnumSet.allOf(QuarantineState.class).stream()
                            .map(Enum::name)
                            .toList());
                    known.addAll(List.of("all", "unresolved"));
                    throw CliException.usage("unknown state '" + s.strip() + "': "
                            + withSuggestion(s.strip(), known) + "one of " + List.of(QuarantineState.values())
                            + ", all or unresolved");
                }
            }
        }
        return states;
    }

    /** Failure classes from {@code A|B}. */
    static Set<FailureClass> classes(String text) {
        Set<FailureClass> classes = EnumSet.noneOf(FailureClass.class);
        for (String s : text.split("[|+;]")) {
            try {
                classes.add(FailureClass.valueOf(s.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw CliException.usage("unknown class '" + s.strip() + "': "
                        + withSuggestion(
                                s.strip(),
                                EnumSet.allOf(FailureClass.class).stream()
                                        .map(Enum::name)
                                        .toList())
                        + "one of " + List.of(FailureClass.values()));
            }
        }
        return classes;
    }

    /** "did you mean 'X'? Use " for a mistyped value, or "use ". */
    private static String withSuggestion(String typed, List<String> known) {
        String hint = Suggestions.didYouMean(typed, known);
        return hint.isEmpty() ? "use " : hint + " Use ";
    }

    /** {@code query} in the filter's words, for summaries. */
    static String describe(QuarantineQuery query) {
        List<String> parts = new ArrayList<>();
        query.sourceQueue().ifPresent(q -> parts.add("queue=" + q));
        parts.add("state="
                + String.join("|", query.states().stream().map(Enum::name).toList()));
        if (!query.classes().isEmpty()) {
            parts.add("class="
                    + String.join("|", query.classes().stream().map(Enum::name).toList()));
        }
        query.errorType().ifPresent(t -> parts.add("error-type=" + t));
        query.olderThan().ifPresent(d -> parts.add("older-than=" + Durations.format(d)));
        return String.join(",", parts);
    }
}
