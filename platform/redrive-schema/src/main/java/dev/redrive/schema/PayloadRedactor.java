package dev.redrive.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.networknt.schema.JsonSchema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Redacts the fields of a payload that its event's JSON Schema marks {@code "x-sensitive": true}, choosing the schema
 * by the payload's own {@code eventType} and {@code version}. A version without a schema (an old or broken payload)
 * is redacted by the names of the fields any published version of its event type marks sensitive, wherever they
 * occur; a payload that is not JSON, or of an event type without any schema, is withheld whole: what is sensitive in it
 * cannot be told. The one rule of what an operator sees of a payload: {@code redrive show} and the console both use it.
 */
public final class PayloadRedactor {

    /** What a redacted value is replaced with. */
    public static final String MASK = "[redacted]";

    /** The path of a payload withheld whole. */
    public static final String WHOLE = "$";

    /**
     * Message attribute names that look like they hold a secret (a token, a password, a signature...): their values
     * are redacted like a payload's sensitive fields, since no schema describes attributes.
     */
    private static final Pattern SECRET_ATTRIBUTE = Pattern.compile(
            "(?i).*(secret|token|password|passwd|credential|authorization|cookie|session|signature|api[-_]?key"
                    + "|private[-_]?key).*");

    private static final int MAX_VERSION = 64;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SchemaRegistry schemas;

    /** A redactor by the sensitive fields of {@code schemas}' event schemas. */
    public PayloadRedactor(SchemaRegistry schemas) {
        this.schemas = schemas;
    }

    /** A redactor that knows no schema: every payload is withheld whole (nothing in it can be told safe). */
    public static PayloadRedactor withoutSchemas() {
        return new PayloadRedactor(SchemaRegistry.of(Map.of()));
    }

    /**
     * What to show of a payload.
     *
     * @param payload   the JSON to show (redacted unless revealed), or empty when withheld or not JSON
     * @param text      the raw text, shown only when revealed and not JSON
     * @param redacted  where values were replaced in {@code payload} ({@code $.customer.email}); empty when revealed
     * @param sensitive where the sensitive values are, replaced or (revealed) not: the redacted paths, or {@value
     *     #WHOLE} for a payload withheld whole; what a reveal shows, and its audit entry names
     * @param basis     how the sensitive fields were found, in words
     * @param revealed  whether this is the payload in full
     */
    public record Redaction(
            Optional<JsonNode> payload,
            Optional<String> text,
            List<String> redacted,
            List<String> sensitive,
            String basis,
            boolean revealed) {

        public Redaction {
            redacted = List.copyOf(redacted);
            sensitive = List.copyOf(sensitive);
        }

        /** Nothing of it is shown: not JSON, or of an event type without a schema, and not revealed. */
        public boolean withheld() {
            return payload.isEmpty() && text.isEmpty();
        }

        /** The payload as shown: pretty-printed JSON, the raw text (revealed, not JSON), or empty when withheld. */
        public String shown() {
            return payload.map(JsonNode::toPrettyString).orElseGet(() -> text.orElse(""));
        }
    }

    /** Whether a message attribute of this name looks like it holds a secret: its value is redacted unless revealed. */
    public static boolean secretAttribute(String name) {
        return SECRET_ATTRIBUTE.matcher(name).matches();
    }

    /**
     * The secret-looking ones of these attribute names, sorted, as a reveal names them ({@code attribute:NAME}), to join
     * {@link Redaction#sensitive()} in what a reveal shows.
     */
    public static List<String> secretAttributePaths(Set<String> attributeNames) {
        return new TreeSet<>(attributeNames)
                .stream()
                        .filter(PayloadRedactor::secretAttribute)
                        .map(n -> "attribute:" + n)
                        .toList();
    }

    /** {@code body} with its sensitive fields redacted: what an operator sees by default. */
    public Redaction redact(String body) {
        return redact(body, false);
    }

    /**
     * {@code body} in full, with where its sensitive fields are ({@link Redaction#sensitive()}): what a reveal shows. A
     * caller that shows it records the reveal ({@code OperatorPort.recordReveal}).
     */
    public Redaction reveal(String body) {
        return redact(body, true);
    }

    /** {@link #redact(String)}, or {@link #reveal(String)} when {@code reveal}. */
    public Redaction redact(String body, boolean reveal) {
        Redaction redacted = redactOnly(body);
        if (!reveal) {
            return redacted;
        }
        JsonNode node = parse(body);
        if (node == null || !node.isObject()) {
            int length = body == null ? 0 : body.length();
            return new Redaction(
                    Optional.empty(),
                    Optional.of(body == null ? "" : body),
                    List.of(),
                    redacted.sensitive(),
                    "not a JSON object (" + length + " characters): shown as stored",
                    true);
        }
        String type = node.path("eventType").asText("");
        JsonNode versionNode = node.get("version");
        return new Redaction(
                Optional.of(node),
                Optional.empty(),
                List.of(),
                redacted.sensitive(),
                describe(type, versionNode, exact(type, versionNode)),
                true);
    }

    private static JsonNode parse(String body) {
        try {
            return body == null ? null : JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private Optional<JsonSchema> exact(String type, JsonNode versionNode) {
        return versionNode != null && versionNode.isIntegralNumber() && !type.isEmpty()
                ? schemas.schema(type, versionNode.intValue())
                : Optional.empty();
    }

    private Redaction redactOnly(String body) {
        JsonNode node = parse(body);
        if (node == null || !node.isObject()) {
            int length = body == null ? 0 : body.length();
            return new Redaction(
                    Optional.empty(),
                    Optional.empty(),
                    List.of(),
                    List.of(WHOLE),
                    "not a JSON object (" + length
                            + " characters): withheld, since its sensitive fields cannot be told apart",
                    false);
        }
        String type = node.path("eventType").asText("");
        JsonNode versionNode = node.get("version");
        Optional<JsonSchema> exact = exact(type, versionNode);
        List<String> redacted = new ArrayList<>();
        if (exact.isPresent()) {
            List<List<String>> paths = new ArrayList<>();
            sensitivePaths(exact.get().getSchemaNode(), new ArrayList<>(), paths);
            for (List<String> path : paths) {
                mask(node, path, 0, "$", redacted);
            }
            return new Redaction(
                    Optional.of(node), Optional.empty(), redacted, redacted, describe(type, versionNode, exact), false);
        }
        Set<String> names = sensitiveNames(type);
        if (names.isEmpty()) {
            return new Redaction(
                    Optional.empty(),
                    Optional.empty(),
                    List.of(),
                    List.of(WHOLE),
                    "event type '" + type
                            + "' has no published schema: withheld, since its sensitive fields cannot be told apart",
                    false);
        }
        maskByName(node, names, "$", redacted);
        return new Redaction(
                Optional.of(node),
                Optional.empty(),
                redacted,
                redacted,
                type + " "
                        + (versionNode == null ? "without a version" : "v" + versionNode.asText())
                        + " has no schema: redacted by the names " + names + " marked sensitive in its other versions",
                false);
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
