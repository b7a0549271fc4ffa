package dev.redrive.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.networknt.schema.JsonSchema;
import dev.redrive.schema.SchemaRegistry;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Redacts the fields of a payload that its event's JSON Schema marks {@code "x-sensitive": true}, choosing the schema
 * by the payload's own {@code eventType} and {@code version}. A version without a schema (an old or broken payload)
 * is redacted by the names of the fields any published version of its event type marks sensitive, wherever they
 * occur; a payload that is not JSON, or of an event type without any schema, is withheld whole: what is sensitive in it
 * cannot be told.
 */
final class Redactor {

    static final String MASK = "[redacted]";
    private static final int MAX_VERSION = 64;

    private final SchemaRegistry schemas;

    Redactor(SchemaRegistry schemas) {
        this.schemas = schemas;
    }

    /**
     * What to show of a payload.
     *
     * @param payload  the JSON to show (redacted unless revealed), or empty when withheld or not JSON
     * @param text     the raw text, shown only when revealed and not JSON
     * @param redacted where values were replaced ({@code $.customer.email})
     * @param basis    how the sensitive fields were found, in words
     */
    record Redaction(Optional<JsonNode> payload, Optional<String> text, List<String> redacted, String basis) {
        boolean withheld() {
            return payload.isEmpty() && text.isEmpty();
        }
    }

    Redaction redact(String body, boolean reveal) {
        JsonNode node;
        try {
            node = body == null ? null : Json.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            node = null;
        }
        if (node == null || !node.isObject()) {
            int length = body == null ? 0 : body.length();
            return reveal
                    ? new Redaction(
                            Optional.empty(),
                            Optional.of(body == null ? "" : body),
                            List.of(),
                            "not a JSON object (" + length + " characters): shown as stored")
                    : new Redaction(
                            Optional.empty(),
                            Optional.empty(),
                            List.of(),
                            "not a JSON object (" + length
                                    + " characters): withheld, since its sensitive fields cannot be told apart");
        }
        String type = node.path("eventType").asText("");
        JsonNode versionNode = node.get("version");
        Optional<JsonSchema> exact = versionNode != null && versionNode.isIntegralNumber() && !type.isEmpty()
                ? schemas.schema(type, versionNode.intValue())
                : Optional.empty();
        if (reveal) {
            return new Redaction(Optional.of(node), Optional.empty(), List.of(), describe(type, versionNode, exact));
        }
        List<String> redacted = new ArrayList<>();
        if (exact.isPresent()) {
            List<List<String>> paths = new ArrayList<>();
            sensitivePaths(exact.get().getSchemaNode(), new ArrayList<>(), paths);
            for (List<String> path : paths) {
                mask(node, path, 0, "$", redacted);
            }
            return new Redaction(Optional.of(node), Optional.empty(), redacted, describe(type, versionNode, exact));
        }
        Set<String> names = sensitiveNames(type);
        if (names.isEmpty()) {
            return new Redaction(
                    Optional.empty(),
                    Optional.empty(),
                    List.of(),
                    "event type '" + type
                            + "' has no published schema: withheld, since its sensitive fields cannot be told apart");
        }
        maskByName(node, names, "$", redacted);
        return new Redaction(
                Optional.of(node),
                Optional.empty(),
                redacted,
                type + " "
                        + (versionNode == null ? "without a version" : "v" + versionNode.asText())
                        + " has no schema: redacted by the names " + names + " marked sensitive in its other versions");
    }

    private static String describe(String type, JsonNode version, Optional<JsonSchema> schema) {
        return schema.isPresent()
                ? "schema " + type + " v" + version.asText()
                : type.isEmpty() ? "no eventType" : type + " (no schema for this version)";
    }

    /** Collects the paths of properties marked sensitive; {@code []} stands for every item of an array. */
    private static void sensitivePaths(JsonNode schema, List<String> at, List<List<String>> out) {
        JsonNode properties = schema.get("properties");
        if (properties != null && properties.isObject()) {
            for (Map.Entry<String, JsonNode> p : properties.properties()) {
                List<String> path = new ArrayList<>(at);
                path.add(p.getKey());
                if (p.getValue().path(SchemaRegistry.SENSITIVE).asBoolean(false)) {
                    out.add(path);
                } else {
                    sensitivePaths(p.getValue(), path, out);
                }
            }
        }
        JsonNode items = schema.get("items");
        if (items != null && items.isObject()) {
            List<String> path = new ArrayList<>(at);
            path.add("[]");
            if (items.path(SchemaRegistry.SENSITIVE).asBoolean(false)) {
                out.add(path);
            } else {
                sensitivePaths(items, path, out);
            }
        }
    }

    private static void mask(JsonNode node, List<String> path, int i, String where, List<String> redacted) {
        String step = path.get(i);
        boolean last = i == path.size() - 1;
        if (step.equals("[]") && node instanceof ArrayNode array) {
            for (int k = 0; k < array.size(); k++) {
                if (last) {
                    array.set(k, TextNode.valueOf(MASK));
                    redacted.add(where + "[" + k + "]");
                } else {
                    mask(array.get(k), path, i + 1, where + "[" + k + "]", redacted);
                }
            }
        } else if (node instanceof ObjectNode object && object.has(step)) {
            if (last) {
                object.put(step, MASK);
                redacted.add(where + "." + step);
            } else {
                mask(object.get(step), path, i + 1, where + "." + step, redacted);
            }
        }
    }

    private static void maskByName(JsonNode node, Set<String> names, String where, List<String> redacted) {
        if (node instanceof ObjectNode object) {
            List<String> fields = new ArrayList<>();
            object.fieldNames().forEachRemaining(fields::add);
            for (String f : fields) {
                if (names.contains(f)) {
                    object.put(f, MASK);
                    redacted.add(where + "." + f);
                } else {
                    maskByName(object.get(f), names, where + "." + f, redacted);
                }
            }
        } else if (node instanceof ArrayNode array) {
            for (int k = 0; k < array.size(); k++) {
                maskByName(array.get(k), names, where + "[" + k + "]", redacted);
            }
        }
    }

    /** The names of the fields marked sensitive in any published version of {@code type}. */
    private Set<String> sensitiveNames(String type) {
        Set<String> names = new LinkedHashSet<>();
        if (type.isEmpty()) {
            return names;
        }
        for (int v = 0; v <= MAX_VERSION; v++) {
            schemas.schema(type, v).ifPresent(s -> {
                List<List<String>> paths = new ArrayList<>();
                sensitivePaths(s.getSchemaNode(), new ArrayList<>(), paths);
                paths.forEach(p -> names.add(p.get(p.size() - 1)));
            });
        }
        names.remove("[]");
        return names;
    }
}
