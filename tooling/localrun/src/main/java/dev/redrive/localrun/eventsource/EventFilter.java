package dev.redrive.localrun.eventsource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An event source mapping's {@code FilterCriteria}, as Lambda applies them: a record is delivered when any pattern
 * matches it. A pattern is an object whose leaves are lists of rules; a field matches when its value meets one of its
 * rules: an exact string, number, boolean or null, {@code {"prefix": "…"}}, {@code {"exists": true|false}} or
 * {@code {"anything-but": value or [values]}}. Other rules (numeric ranges, suffixes, wildcards…) are refused when the
 * filter is read, naming the rule, so a template never runs here with a filter read differently than on AWS.
 */
public final class EventFilter {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> RULES = Set.of("prefix", "exists", "anything-but");

    private final List<JsonNode> patterns;

    private EventFilter(List<JsonNode> patterns) {
        this.patterns = patterns;
    }

    /** The filter of {@code patterns} (JSON text each); no pattern: every record is delivered. */
    public static EventFilter of(List<String> patterns) {
        List<JsonNode> read = new ArrayList<>();
        for (String p : patterns) {
            JsonNode node;
            try {
                node = JSON.readTree(p);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("filter pattern is not JSON: " + e.getOriginalMessage());
            }
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("filter pattern must be a JSON object: " + p);
            }
            check(node, "$");
            read.add(node);
        }
        return new EventFilter(List.copyOf(read));
    }

    private static void check(JsonNode pattern, String path) {
        for (Iterator<Map.Entry<String, JsonNode>> it = pattern.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String at = path + "." + field.getKey();
            JsonNode v = field.getValue();
            if (v.isObject()) {
                check(v, at);
            } else if (v.isArray()) {
                for (JsonNode rule : v) {
                    if (rule.isObject()) {
                        if (rule.size() != 1
                                || !RULES.contains(rule.fieldNames().next())) {
                            throw new IllegalArgumentException("filter rule " + rule + " at " + at
                                    + " is not run locally (only exact values, prefix, exists and anything-but)");
                        }
                    } else if (rule.isArray()) {
                        throw new IllegalArgumentException("filter rule at " + at + " is a nested list");
                    }
                }
            } else {
                throw new IllegalArgumentException("filter pattern at " + at + " must be an object or a list of rules");
            }
        }
    }

    /** Whether Lambda delivers {@code record} (the record as the function would get it). */
    public boolean matches(JsonNode record) {
        if (patterns.isEmpty()) {
            return true;
        }
        for (JsonNode p : patterns) {
            if (matches(p, record)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(JsonNode pattern, JsonNode value) {
        for (Iterator<Map.Entry<String, JsonNode>> it = pattern.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode actual = value == null ? null : value.get(field.getKey());
            JsonNode rule = field.getValue();
            if (rule.isObject()) {
                if (actual == null || !actual.isObject() || !matches(rule, actual)) {
                    return false;
                }
            } else if (!anyRule(rule, actual)) {
                return false;
            }
        }
        return true;
    }

    private static boolean anyRule(JsonNode rules, JsonNode actual) {
        for (JsonNode rule : rules) {
            if (rule(rule, actual)) {
                return true;
            }
        }
        return false;
    }

    private static boolean rule(JsonNode rule, JsonNode actual) {
        if (!rule.isObject()) {
            return actual != null && !actual.isContainerNode() && sameValue(rule, actual);
        }
        String kind = rule.fieldNames().next();
        JsonNode arg = rule.get(kind);
        return switch (kind) {
            case "prefix" ->
                actual != null && actual.isTextual() && actual.asText().startsWith(arg.asText());
            case "exists" -> arg.asBoolean() == (actual != null && !actual.isContainerNode());
            default -> {
                // anything-but
                if (actual == null || actual.isContainerNode()) {
                    yield false;
                }
                if (arg.isArray()) {
                    for (JsonNode excluded : arg) {
                        if (sameValue(excluded, actual)) {
                            yield false;
                        }
                    }
                    yield true;
                }
                yield !sameValue(arg, actual);
            }
        };
    }

    private static boolean sameValue(JsonNode expected, JsonNode actual) {
        if (expected.isNumber() && actual.isNumber()) {
            return expected.decimalValue().compareTo(actual.decimalValue()) == 0;
        }
        return expected.equals(actual);
    }
}
