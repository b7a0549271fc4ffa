package dev.redrive.cli;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which dead letters a command works on: by source queue, states, failure class, error type and age. {@code list}
 * builds one from its options; {@code replay} and {@code archive} parse {@code --filter} text:
 * {@code queue=order-placed-email,class=TRANSIENT,older-than=2h,error-type=Timeout,state=QUARANTINED|UNDER_REVIEW}.
 *
 * @param queue     the source queue (name), if any
 * @param states    the states wanted (never empty)
 * @param classes   the failure classes wanted (empty: any)
 * @param errorType the error type wanted, if any (exact, case-sensitive)
 * @param olderThan only records that arrived longer ago than this, if any
 */
public record RecordFilter(
        Optional<String> queue,
        Set<QuarantineState> states,
        Set<FailureClass> classes,
        Optional<String> errorType,
        Optional<Duration> olderThan) {

    /** The states nobody has resolved yet: the default of {@code list}. */
    public static final Set<QuarantineState> UNRESOLVED = EnumSet.of(
            QuarantineState.QUARANTINED,
            QuarantineState.UNDER_REVIEW,
            QuarantineState.SCHEMA_CHECK,
            QuarantineState.IDEMPOTENCY_CHECK);

    /** The keys {@code --filter} accepts. */
    public static final List<String> KEYS = List.of("queue", "state", "class", "error-type", "older-than");

    public RecordFilter {
        states = states.isEmpty() ? EnumSet.copyOf(UNRESOLVED) : EnumSet.copyOf(states);
        classes = classes.isEmpty() ? EnumSet.noneOf(FailureClass.class) : EnumSet.copyOf(classes);
    }

    /** Parses {@code --filter} text; states default to {@code defaultStates}. Bad text is a usage error. */
    public static RecordFilter parse(String text, Set<QuarantineState> defaultStates) {
        if (text == null || text.isBlank()) {
            throw CliException.usage("--filter is empty (e.g. --filter queue=order-placed-email,class=TRANSIENT)");
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
                throw CliException.usage("unknown filter key '" + key + "': use " + KEYS);
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
        return new RecordFilter(
                Optional.ofNullable(pairs.get("queue")),
                pairs.containsKey("state") ? states(pairs.get("state")) : defaultStates,
                pairs.containsKey("class") ? classes(pairs.get("class")) : Set.of(),
                Optional.ofNullable(pairs.get("error-type")),
                Optional.ofNullable(olderThan));
    }

    /** States from {@code A|B}, {@code A+B} or {@code A;B} (or {@code all}, {@code unresolved}). */
    public static Set<QuarantineState> states(String text) {
        Set<QuarantineState> states = EnumSet.noneOf(QuarantineState.class);
        for (String s : text.split("[|+;]")) {
            String name = s.strip().toUpperCase(Locale.ROOT).replace('-', '_');
            if (name.equals("ALL")) {
                states.addAll(EnumSet.allOf(QuarantineState.class));
            } else if (name.equals("UNRESOLVED")) {
                states.addAll(UNRESOLVED);
            } else {
                try {
                    states.add(QuarantineState.valueOf(name));
                } catch (IllegalArgumentException e) {
                    throw CliException.usage("unknown state '" + s.strip() + "': use one of "
                            + List.of(QuarantineState.values()) + ", all or unresolved");
                }
            }
        }
        return states;
    }

    /** Failure classes from {@code A|B}. */
    public static Set<FailureClass> classes(String text) {
        Set<FailureClass> classes = EnumSet.noneOf(FailureClass.class);
        for (String s : text.split("[|+;]")) {
            try {
                classes.add(FailureClass.valueOf(s.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw CliException.usage(
                        "unknown class '" + s.strip() + "': use one of " + List.of(FailureClass.values()));
            }
        }
        return classes;
    }

    /** Whether {@code r} matches everything but the state and queue (which the ledger queries select on). */
    public boolean matches(QuarantineRecord r, Instant now) {
        return states.contains(r.state())
                && queue.map(q -> q.equals(r.sourceQueue())).orElse(true)
                && (classes.isEmpty() || classes.contains(r.classification().failureClass()))
                && errorType.map(t -> t.equals(r.classification().errorType())).orElse(true)
                && olderThan.map(d -> r.arrivedAt().isBefore(now.minus(d))).orElse(true);
    }

    /** The filter in words, for summaries. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        queue.ifPresent(q -> parts.add("queue=" + q));
        parts.add("state=" + String.join("|", states.stream().map(Enum::name).toList()));
        if (!classes.isEmpty()) {
            parts.add(
                    "class=" + String.join("|", classes.stream().map(Enum::name).toList()));
        }
        errorType.ifPresent(t -> parts.add("error-type=" + t));
        olderThan.ifPresent(d -> parts.add("older-than=" + Durations.format(d)));
        return String.join(",", parts);
    }
}
