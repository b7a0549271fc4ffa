package dev.redrive.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.AnnotationKeyword;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The JSON Schemas of events, one per event type and version, validated with networknt's JSON Schema validator (draft
 * 2020-12): either declared inline ({@link #of}, how a route of the routes document carries them) or read from
 * {@code <root>/<type>/v<n>.json} on the classpath ({@link #SchemaRegistry(Class, String)}). Unknown fields are
 * allowed: a producer may add fields without breaking consumers.
 *
 * <p>A property marked {@code "x-sensitive": true} holds personal data (an email address, a name): it validates like
 * any other, and operator tools redact it when they show a payload ({@code redrive show}). The keyword is registered
 * as an annotation, so the validator neither rejects nor warns about it.
 */
public class SchemaRegistry {

    /** The annotation marking a property that holds personal data. */
    public static final String SENSITIVE = "x-sensitive";

    /** The highest version a classpath registry looks for when asked for a type's versions. */
    private static final int MAX_PROBED_VERSION = 1000;

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(
            SpecVersion.VersionFlag.V202012,
            b -> b.metaSchema(JsonMetaSchema.builder(JsonMetaSchema.getV202012())
                    .keyword(new AnnotationKeyword(SENSITIVE))
                    .build()));
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BiFunction<String, Integer, Optional<JsonNode>> source;
    private final Map<String, Optional<JsonSchema>> schemas = new ConcurrentHashMap<>();

    /**
     * The schemas under {@code root} on the classpath of {@code anchor} ({@code <root>/<type>/v<n>.json}), read through
     * {@code anchor}'s own class loader.
     */
    public SchemaRegistry(Class<?> anchor, String root) {
        this((type, version) -> read(anchor, "/" + root + "/" + type + "/v" + version + ".json"));
    }

    private SchemaRegistry(BiFunction<String, Integer, Optional<JsonNode>> source) {
        this.source = source;
    }

    /** The schemas declared inline: by event type, by version. */
    public static SchemaRegistry of(Map<String, ? extends Map<Integer, JsonNode>> declared) {
        Map<String, Map<Integer, JsonNode>> copy = new TreeMap<>();
        declared.forEach((type, versions) -> copy.put(type, Map.copyOf(versions)));
        return new SchemaRegistry((type, version) ->
                Optional.ofNullable(copy.getOrDefault(type, Map.of()).get(version)));
    }

    /** Compiles a schema the way every published one is compiled (draft 2020-12, {@code x-sensitive} known). */
    public static JsonSchema compile(JsonNode schema) {
        return FACTORY.getSchema(schema);
    }

    /** The schema of {@code eventType} at {@code version}, if one is published. */
    public Optional<JsonSchema> schema(String eventType, int version) {
        if (eventType == null || !eventType.matches("[A-Za-z][A-Za-z0-9._-]{0,127}")) {
            return Optional.empty();
        }
        return schemas.computeIfAbsent(
                eventType + "/v" + version,
                path -> source.apply(eventType, version).map(FACTORY::getSchema));
    }

    /** Every version of {@code eventType} published, lowest first, with its schema document. */
    public SortedMap<Integer, JsonNode> versions(String eventType) {
        SortedMap<Integer, JsonNode> versions = new TreeMap<>();
        for (int v = 1; v <= MAX_PROBED_VERSION; v++) {
            Optional<JsonSchema> schema = schema(eventType, v);
            if (schema.isEmpty()) {
                break;
            }
            versions.put(v, schema.get().getSchemaNode());
        }
        return versions;
    }

    /**
     * The schema's own node at {@code pointer} (a JSON pointer into the schema document, such as
     * {@code /properties/eventId/pattern}): how readers take their bounds from the schema instead of repeating them.
     */
    public Optional<JsonNode> rule(String eventType, int version, String pointer) {
        return schema(eventType, version)
                .map(s -> s.getSchemaNode().at(pointer))
                .filter(n -> !n.isMissingNode());
    }

    /** Every property name the schema declares, at any depth: the keys a reason may name. */
    public Set<String> propertyNames(String eventType, int version) {
        Set<String> names = new TreeSet<>();
        schema(eventType, version).ifPresent(s -> collectPropertyNames(s.getSchemaNode(), names));
        return names;
    }

    /** Every property name a schema document declares, at any depth. */
    public static Set<String> propertyNames(JsonNode schema) {
        Set<String> names = new TreeSet<>();
        collectPropertyNames(schema, names);
        return names;
    }

    private static void collectPropertyNames(JsonNode schema, Set<String> names) {
        JsonNode properties = schema.get("properties");
        if (properties != null && properties.isObject()) {
            properties.fields().forEachRemaining(p -> {
                names.add(p.getKey());
                collectPropertyNames(p.getValue(), names);
            });
        }
        JsonNode items = schema.get("items");
        if (items != null && items.isObject()) {
            collectPropertyNames(items, names);
        }
    }

    /**
     * Validates {@code event} against its schema; the problems name the location and the rule broken, never the
     * offending value (payloads stay out of logs and the ledger's reasons).
     */
    public List<String> problems(String eventType, int version, JsonNode event) {
        JsonSchema schema = schema(eventType, version)
                .orElseThrow(() -> new IllegalArgumentException("no schema for " + eventType + " v" + version));
        return problems(schema, event);
    }

    /** The problems of {@code event} against {@code schema}, sorted, naming places and rules, never values. */
    public static List<String> problems(JsonSchema schema, JsonNode event) {
        List<String> problems = new ArrayList<>();
        for (ValidationMessage m : schema.validate(event)) {
            String location = m.getInstanceLocation() == null
                    ? "$"
                    : m.getInstanceLocation().toString();
            String rule = m.getType();
            if ("required".equals(rule) && m.getProperty() != null) {
                problems.add(location + "." + m.getProperty() + " is missing");
            } else if ("type".equals(rule) && m.getArguments() != null && m.getArguments().length >= 2) {
                problems.add(location + " is " + m.getArguments()[0] + ", expected " + m.getArguments()[1]);
            } else {
                problems.add(location + " breaks '" + rule + "'");
            }
        }
        problems.sort(String::compareTo);
        return problems;
    }

    private static Optional<JsonNode> read(Class<?> anchor, String path) {
        try (InputStream in = anchor.getResourceAsStream(path)) {
            return in == null ? Optional.empty() : Optional.of(JSON.readTree(in));
        } catch (IOException e) {
            throw new IllegalStateException("schema " + path + " could not be read", e);
        }
    }
}
