package dev.redrive.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/** Parses and validates the routes document; every problem names the route (index and consumer) and the field. */
final class RoutesParser {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of(
            "consumer",
            "sourceQueue",
            "deadLetterQueue",
            "key",
            "eventType",
            "version",
            "schemas",
            "upcasters",
            "breaker",
            "description");

    private RoutesParser() {}

    static List<DeclaredRoute> parse(String json) {
        JsonNode doc = RoutesDocument.tree(json, "the routes document");
        if (doc == null || !doc.isObject()) {
            throw new IllegalArgumentException(
                    "the routes document must be a JSON object {\"version\": 1, \"routes\": [...]}");
        }
        JsonNode version = doc.get("version");
        if (version == null || !version.isInt() || version.intValue() != RoutesDocument.VERSION) {
            throw new IllegalArgumentException("the routes document's \"version\" must be " + RoutesDocument.VERSION
                    + " (the only version this reader knows)");
        }
        JsonNode routes = doc.get("routes");
        if (routes == null || !routes.isArray()) {
            throw new IllegalArgumentException("the routes document's \"routes\" must be an array of routes");
        }
        List<DeclaredRoute> parsed = new ArrayList<>();
        for (int i = 0; i < routes.size(); i++) {
            parsed.add(route(i, routes.get(i)));
        }
        return parsed;
    }

    static List<DeclaredRoute> parseLegacy(String json) {
        JsonNode routes = RoutesDocument.tree(json, "REDRIVE_SWEEPER_ROUTES");
        if (routes == null || !routes.isArray()) {
            throw new IllegalArgumentException("REDRIVE_SWEEPER_ROUTES must be a JSON array of routes");
        }
        List<DeclaredRoute> parsed = new ArrayList<>();
        for (int i = 0; i < routes.size(); i++) {
            JsonNode r = routes.get(i);
            Where at = new Where(i, r.path("consumer").asText("?"));
            String consumer = text(at, r, "consumer");
            String source = r.hasNonNull("sourceQueueUrl") ? text(at, r, "sourceQueueUrl") : text(at, r, "sourceQueue");
            String dlq = r.hasNonNull("deadLetterQueueUrl")
                    ? text(at, r, "deadLetterQueueUrl")
                    : text(at, r, "deadLetterQueue");
            parsed.add(new DeclaredRoute(consumer, source, dlq, Optional.empty(), Optional.empty()));
        }
        return parsed;
    }

    /** Where a problem is: {@code routes[3] (consumer 'x')}. */
    private record Where(int index, String consumer) {
        IllegalArgumentException problem(String field, String what) {
            return new IllegalArgumentException(
                    "routes[" + index + "] (consumer '" + consumer + "'): \"" + field + "\" " + what);
        }
    }

    private static DeclaredRoute route(int index, JsonNode r) {
        if (r == null || !r.isObject()) {
            throw new IllegalArgumentException("routes[" + index + "] is not a JSON object");
        }
        Where at = new Where(index, r.path("consumer").asText("?"));
        for (Iterator<String> names = r.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw at.problem(name, "is not a field of a route (known: " + new java.util.TreeSet<>(FIELDS) + ")");
            }
        }
        String consumer = text(at, r, "consumer");
        if (consumer.contains("#") || !consumer.matches("[!-~]{1,128}")) {
            throw at.problem("consumer", "must be 1-128 visible ASCII characters without '#' (it starts claim keys)");
        }
        String source = text(at, r, "sourceQueue");
        String dlq = text(at, r, "deadLetterQueue");
        Optional<String> breaker = r.has("breaker") ? Optional.of(text(at, r, "breaker")) : Optional.empty();
        return new DeclaredRoute(consumer, source, dlq, contract(at, consumer, r), breaker);
    }

    private static Optional<EventContract> contract(Where at, String consumer, JsonNode r) {
        if (!r.has("key") && !r.has("schemas")) {
            if (r.has("upcasters") || r.has("eventType") || r.has("version")) {
                throw at.problem(
                        "key",
                        "is missing: a route that declares types, versions or upcasters declares its "
                                + "key and schemas");
            }
            return Optional.empty();
        }
        if (!r.has("key")) {
            throw at.problem("key", "is missing: a route with schemas declares where its key is");
        }
        KeySource key = key(at, r.get("key"));
        if (!r.has("schemas")) {
            throw at.problem("schemas", "is missing: a route with a key declares the schemas of what it reads");
        }
        Map<String, SortedMap<Integer, JsonNode>> schemas = versioned(at, "schemas", r.get("schemas"), true);
        Map<String, SortedMap<Integer, JsonNode>> patches =
                r.has("upcasters") ? versioned(at, "upcasters", r.get("upcasters"), false) : Map.of();
        try {
            return Optional.of(new EventContract(
                    consumer, key, pointer(at, r, "eventType"), pointer(at, r, "version"), schemas, patches));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "routes[" + at.index() + "] (consumer '" + consumer + "'): " + e.getMessage(), e);
        }
    }

    private static KeySource key(Where at, JsonNode key) {
        if (key == null || !key.isObject() || key.size() != 1 || !(key.has("pointer") || key.has("attribute"))) {
            throw at.problem("key", "must be {\"pointer\": \"/field\"} or {\"attribute\": \"name\"}");
        }
        JsonNode value = key.has("pointer") ? key.get("pointer") : key.get("attribute");
        if (!value.isTextual()) {
            throw at.problem("key", "must name a JSON pointer or a message attribute as a string");
        }
        try {
            return key.has("pointer") ? KeySource.pointer(value.textValue()) : KeySource.attribute(value.textValue());
        } catch (IllegalArgumentException e) {
            throw at.problem("key", e.getMessage());
        }
    }

    private static Optional<String> pointer(Where at, JsonNode r, String field) {
        JsonNode node = r.get(field);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isObject() || node.size() != 1 || !node.path("pointer").isTextual()) {
            throw at.problem(field, "must be {\"pointer\": \"/field\"}");
        }
        try {
            return Optional.of(Pointers.check(node.get("pointer").textValue()));
        } catch (IllegalArgumentException e) {
            throw at.problem(field, e.getMessage());
        }
    }

    /** {@code {"Type": {"1": ..., "2": ...}}}: schemas (objects, compiled) or patches (arrays). */
    private static Map<String, SortedMap<Integer, JsonNode>> versioned(
            Where at, String field, JsonNode node, boolean schemas) {
        if (!node.isObject() || (schemas && node.isEmpty())) {
            throw at.problem(field, "must be an object of event types" + (schemas ? ", at least one" : ""));
        }
        Map<String, SortedMap<Integer, JsonNode>> out = new TreeMap<>();
        node.fields().forEachRemaining(type -> {
            String where = field + "." + type.getKey();
            if (!type.getKey().matches("[A-Za-z][A-Za-z0-9._-]{0,127}")) {
                throw at.problem(where, "is not an event type name (a letter, then letters, digits, . _ -)");
            }
            if (!type.getValue().isObject() || type.getValue().isEmpty()) {
                throw at.problem(where, "must be an object of versions, such as {\"1\": ...}");
            }
            SortedMap<Integer, JsonNode> versions = new TreeMap<>();
            type.getValue().fields().forEachRemaining(v -> {
                String place = where + "." + v.getKey();
                if (!v.getKey().matches("[1-9][0-9]{0,5}")) {
                    throw at.problem(place, "is not a version (a positive integer)");
                }
                versions.put(Integer.parseInt(v.getKey()), document(at, place, v.getValue(), schemas));
            });
            out.put(type.getKey(), versions);
        });
        return out;
    }

    private static JsonNode document(Where at, String place, JsonNode doc, boolean schema) {
        if (schema) {
            if (!doc.isObject()) {
                throw at.problem(place, "must be a JSON Schema (an object)");
            }
            try {
                SchemaRegistry.compile(doc);
            } catch (RuntimeException e) {
                throw at.problem(place, "is not a JSON Schema the validator compiles: " + e.getMessage());
            }
            return doc;
        }
        if (!doc.isArray()) {
            throw at.problem(place, "must be an RFC 6902 JSON Patch (an array of operations)");
        }
        try {
            new JsonPatchUpcaster("T", 1, doc);
        } catch (IllegalArgumentException e) {
            throw at.problem(place, "is not a JSON Patch: " + e.getCause().getMessage());
        }
        return doc;
    }

    private static String text(Where at, JsonNode r, String field) {
        JsonNode v = r.get(field);
        if (v == null || !v.isTextual() || v.textValue().isBlank()) {
            throw at.problem(field, "is missing or not a non-blank string");
        }
        return v.textValue();
    }

    /** A route as the document holds it. */
    static ObjectNode write(DeclaredRoute r) {
        ObjectNode out = JSON.createObjectNode();
        out.put("consumer", r.consumer());
        out.put("sourceQueue", r.sourceQueue());
        out.put("deadLetterQueue", r.deadLetterQueue());
        r.contract().ifPresent(c -> {
            ObjectNode key = out.putObject("key");
            if (c.key().pointer() != null) {
                key.put("pointer", c.key().pointer());
            } else {
                key.put("attribute", c.key().attribute());
            }
            c.typePointer().ifPresent(p -> out.putObject("eventType").put("pointer", p));
            c.versionPointer().ifPresent(p -> out.putObject("version").put("pointer", p));
            out.set("schemas", versions(c.schemas()));
            if (!c.patches().isEmpty()) {
                out.set("upcasters", versions(c.patches()));
            }
        });
        r.breaker().ifPresent(b -> out.put("breaker", b));
        return out;
    }

    private static ObjectNode versions(Map<String, SortedMap<Integer, JsonNode>> byType) {
        ObjectNode out = JSON.createObjectNode();
        byType.forEach((type, versions) -> {
            ObjectNode v = out.putObject(type);
            versions.forEach((n, doc) -> v.set(Integer.toString(n), doc));
        });
        return out;
    }
}
