package dev.redrive.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a new version of an event schema may change: only add optional fields. Compares version N+1 with version N,
 * property by property (nested objects and array items included), and names every breaking change with the field and
 * the rule it breaks. Consumers ignore unknown fields, so an added optional field breaks no one; anything else does.
 * A type change is any change of the allowed types, widening included ({@code integer} to {@code number}, or allowing
 * {@code null}): a consumer of version N cannot read the new values.
 *
 * <p>The rules: a field may not be removed or renamed (a rename is a removal plus an addition), may not change type,
 * may not become required, and a new field may not be required. Values of {@code const} (the {@code version} field's
 * own number, say) are not compared: only the type they imply.
 */
public final class SchemaEvolution {

    /** One breaking change: where, which rule, and what changed. */
    public record BreakingChange(String field, String rule, String detail) {
        @Override
        public String toString() {
            return field + ": " + detail + " (" + rule + ")";
        }
    }

    public static final String REMOVED_OR_RENAMED = "a field may not be removed or renamed";
    public static final String TYPE_CHANGED = "a field may not change type";
    public static final String MADE_REQUIRED = "an optional field may not become required";
    public static final String REQUIRED_ADDED = "a new field may not be required";

    private SchemaEvolution() {}

    /** The breaking changes from {@code older} to {@code newer}, in field order; empty when N+1 only adds. */
    public static List<BreakingChange> breakingChanges(JsonNode older, JsonNode newer) {
        List<BreakingChange> changes = new ArrayList<>();
        compare("$", older, newer, changes);
        return changes;
    }

    private static void compare(String path, JsonNode older, JsonNode newer, List<BreakingChange> changes) {
        Set<String> olderTypes = types(older);
        Set<String> newerTypes = types(newer);
        if (!olderTypes.isEmpty() && !newerTypes.equals(olderTypes)) {
            changes.add(new BreakingChange(path, TYPE_CHANGED, "type " + olderTypes + " became " + newerTypes));
            return;
        }
        JsonNode olderProperties = older.path("properties");
        JsonNode newerProperties = newer.path("properties");
        Set<String> olderRequired = names(older.path("required"));
        Set<String> newerRequired = names(newer.path("required"));
        olderProperties.fieldNames().forEachRemaining(name -> {
            String field = path + "." + name;
            JsonNode next = newerProperties.get(name);
            if (next == null) {
                changes.add(new BreakingChange(field, REMOVED_OR_RENAMED, "present in the older version, gone"));
            } else {
                compare(field, olderProperties.get(name), next, changes);
            }
        });
        for (String name : newerRequired) {
            if (olderRequired.contains(name)) {
                continue;
            }
            String field = path + "." + name;
            if (olderProperties.has(name)) {
                changes.add(new BreakingChange(field, MADE_REQUIRED, "optional in the older version, now required"));
            } else {
                changes.add(new BreakingChange(field, REQUIRED_ADDED, "added as a required field"));
            }
        }
        if (older.has("items") && newer.has("items")) {
            compare(path + "[]", older.get("items"), newer.get("items"), changes);
        }
    }

    /** The JSON types a schema allows: its {@code type} (one or a list), else the type of its {@code const}. */
    private static Set<String> types(JsonNode schema) {
        Set<String> types = new LinkedHashSet<>();
        JsonNode type = schema.get("type");
        if (type != null && type.isTextual()) {
            types.add(type.asText());
        } else if (type != null && type.isArray()) {
            type.forEach(t -> types.add(t.asText()));
        } else if (schema.has("const")) {
            types.add(jsonType(schema.get("const")));
        }
        return types;
    }

    private static String jsonType(JsonNode value) {
        if (value.isIntegralNumber()) {
            return "integer";
        }
        if (value.isNumber()) {
            return "number";
        }
        if (value.isTextual()) {
            return "string";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        if (value.isArray()) {
            return "array";
        }
        return value.isObject() ? "object" : "null";
    }

    private static Set<String> names(JsonNode array) {
        Set<String> names = new LinkedHashSet<>();
        array.forEach(n -> names.add(n.asText()));
        return names;
    }
}
