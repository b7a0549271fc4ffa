package dev.redrive.checkout;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JSON Schemas of the events, one per event type and version, from {@code schemas/<type>/v<n>.json} on the
 * classpath, validated with networknt's JSON Schema validator (draft 2020-12). Unknown fields are allowed: a producer
 * may add fields without breaking consumers.
 *
 * <p>A property marked {@code "x-sensitive": true} holds personal data (an email address, a name): it validates like
 * any other, and operator tools redact it when they show a payload ({@code redrive show}). The keyword is registered
 * as an annotation, so the validator neither rejects nor warns about it.
 */
public final class EventSchemas {

    /** The annotation marking a property that holds personal data. */
    public static final String SENSITIVE = "x-sensitive";

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(
            SpecVersion.VersionFlag.V202012,
            b -> b.metaSchema(JsonMetaSchema.builder(JsonMetaSchema.getV202012())
                    .keyword(new AnnotationKeyword(SENSITIVE))
                    .build()));
    private final Map<String, Optional<JsonSchema>> schemas = new ConcurrentHashMap<>();

    /** Compiles a schema the way every published one is compiled (draft 2020-12, {@code x-sensitive} known). */
    public static JsonSchema compile(JsonNode schema) {
        return FACTORY.getSchema(schema);
    }

    /** The schema of {@code eventType} at {@code version}, if one is published. */
    public Optional<JsonSchema> schema(String eventType, int version) {
        if (!eventType.matches("[A-Za-z][A-Za-z0-9]{0,63}")) {
            return Optional.empty();
        }
        return schemas.computeIfAbsent(eventType + "/v" + version, path -> {
            try (InputStream in = EventSchemas.class.getResourceAsStream("/schemas/" + path + ".json")) {
                return in == null ? Optional.empty() : Optional.of(FACTORY.getSchema(in));
            } catch (IOException e) {
                throw new IllegalStateException("schema " + path + " could not be read", e);
            }
        });
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
}
