package dev.redrive.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.core.schema.Upcaster;
import dev.redrive.core.schema.UpcasterChain;
import dev.redrive.schema.internal.JsonTypes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads a message by its {@link EventContract}, the same way for the consumer, the sweeper and the CLI: strictly
 * ({@link StrictJson}), the event type and version from their pointers, upcast step by step to the current (highest
 * declared) version by the declared JSON Patches or registered Java {@link Upcaster}s, the consumer's own
 * {@linkplain Rule rules}, the key held to the key rule ({@value #KEY_RULE}), and validation against the current
 * version's JSON Schema. The result is the current-version document, its producer key and its canonical JSON
 * ({@link CanonicalJson}): the payload a claim fingerprints. Every refusal is a {@link SchemaViolation} whose reason
 * names the field and the rule, never a value.
 */
public final class ContractReader implements KeyReader {

    /** What a producer key must be: 1-256 visible ASCII characters (safe in a DynamoDB key, a header, a log line). */
    public static final String KEY_RULE = "^[!-~]{1,256}$";

    private static final Pattern KEY = Pattern.compile(KEY_RULE);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A consumer's own check of the current-version document, run before the key and the schema are checked, so that
     * its reason is the one given (an amount's bounds, an event id's rule); it throws a {@link SchemaViolation}.
     */
    @FunctionalInterface
    public interface Rule {
        void check(String eventType, int version, ObjectNode event);
    }

    private final EventContract contract;
    private final SchemaRegistry schemas;
    private final UpcasterChain upcasters;
    private final StrictJson strict;
    private final List<Rule> rules;
    private final boolean upcasting;
    private final Map<String, JsonSchema> current = new HashMap<>();

    /** A reader with the declared patches and the Java upcasters the context class loader registers. */
    public ContractReader(EventContract contract) {
        this(contract, Upcasters.registered(loader()), List.of());
    }

    /**
     * @param java  Java upcasters besides the contract's patches (those of other types are ignored)
     * @param rules the consumer's own checks of the current-version document
     */
    public ContractReader(EventContract contract, List<Upcaster> java, List<Rule> rules) {
        this(contract, contract.registry(), Upcasters.chain(contract, java), rules, true);
    }

    private ContractReader(
            EventContract contract,
            SchemaRegistry schemas,
            UpcasterChain upcasters,
            List<Rule> rules,
            boolean upcasting) {
        this.contract = contract;
        this.schemas = schemas;
        this.upcasters = upcasters;
        this.rules = List.copyOf(rules);
        this.upcasting = upcasting;
        Set<String> known = new TreeSet<>();
        contract.schemas()
                .values()
                .forEach(versions -> versions.values().forEach(doc -> known.addAll(SchemaRegistry.propertyNames(doc))));
        this.strict = new StrictJson(known);
        contract.schemas()
                .forEach((type, versions) -> current.put(
                        type, schemas.schema(type, versions.lastKey()).orElseThrow()));
    }

    /**
     * This reader, refusing an older version ({@code OutdatedVersion}) instead of upcasting it: how a consumer that
     * leaves upcasts to the replay (with its audit trail) reads its first deliveries.
     */
    public ContractReader readingCurrentOnly() {
        return new ContractReader(contract, schemas, upcasters, rules, false);
    }

    /** The contract read. */
    public EventContract contract() {
        return contract;
    }

    /** The strict reading this reader uses. */
    public StrictJson strictJson() {
        return strict;
    }

    /** The upcasters this reader applies. */
    public UpcasterChain upcasters() {
        return upcasters;
    }

    /** The schemas this reader validates with. */
    public SchemaRegistry schemas() {
        return schemas;
    }

    /** Reads {@code message} into its current-version document, producer key and canonical payload. */
    @Override
    public ParsedMessage<JsonNode> parse(IncomingMessage message) {
        ObjectNode node = strict.readObject(message.body());
        String type = type(node);
        int version = version(node, type);
        int top = contract.currentVersion(type);
        if (version != top) {
            boolean known = contract.schemas().get(type).containsKey(version) && version < top;
            if (!known || !upcasting) {
                throw new SchemaViolation(
                        known ? "OutdatedVersion" : "UnknownVersion",
                        type + " v" + version + (known ? " is an older version" : " is not a known version")
                                + "; this consumer reads v" + top);
            }
            node = upcast(type, version, top, node);
        }
        return current(type, top, node, message);
    }

    /** The document of {@code type} at its current version {@code top}, checked and keyed. */
    ParsedMessage<JsonNode> current(String type, int top, ObjectNode node, IncomingMessage message) {
        return current(type, top, node, message, true);
    }

    /** As above; without {@code keyRequired}, a key that is absent is not refused (the attributes are not at hand). */
    ParsedMessage<JsonNode> current(
            String type, int top, ObjectNode node, IncomingMessage message, boolean keyRequired) {
        for (Rule rule : rules) {
            rule.check(type, top, node);
        }
        Optional<String> key = rawKey(node, message);
        key.ifPresent(this::checkKey);
        List<String> problems = SchemaRegistry.problems(current.get(type), node);
        if (!problems.isEmpty()) {
            throw new SchemaViolation("SchemaValidation", schemaFailure(type, top) + String.join("; ", problems));
        }
        if (key.isEmpty() && !keyRequired) {
            return new ParsedMessage<>(node, "", CanonicalJson.of(node));
        }
        String producerKey = key.orElseThrow(() -> new SchemaViolation(
                "MissingKey", contract.key().describe() + ", the producer key, is missing or not a string"));
        return new ParsedMessage<>(node, producerKey, CanonicalJson.of(node));
    }

    /**
     * The producer key of any declared version of any declared type, read as strictly as {@link #parse} and held to
     * the same key rule, without validating the rest: how the sweeper finds the claims made for payloads the current
     * version no longer reads. Empty when the message has no such key.
     */
    @Override
    public Optional<String> producerKey(IncomingMessage message) {
        try {
            Optional<String> key = rawKey(strict.readObject(message.body()), message);
            key.ifPresent(this::checkKey);
            return key;
        } catch (SchemaViolation e) {
            return Optional.empty();
        }
    }

    /** How a reason for a schema validation failure starts (the problems follow). */
    public static String schemaFailure(String type, int version) {
        return type + " v" + version + " fails its schema: ";
    }

    String type(ObjectNode node) {
        if (contract.typePointer().isEmpty()) {
            return contract.schemas().keySet().iterator().next();
        }
        String pointer = contract.typePointer().get();
        JsonNode typeNode = node.at(pointer);
        if (typeNode.isMissingNode() || typeNode.isNull()) {
            throw new SchemaViolation("UnexpectedEventType", "the message has no " + Pointers.describe(pointer));
        }
        if (!typeNode.isTextual() || !contract.schemas().containsKey(typeNode.textValue())) {
            // The value is not echoed: it may be anything, personal data included.
            throw new SchemaViolation(
                    "UnexpectedEventType",
                    Pointers.describe(pointer) + " is not "
                            + String.join(" or ", contract.schemas().keySet()) + ", the type"
                            + (contract.schemas().size() == 1 ? "" : "s") + " this consumer reads");
        }
        return typeNode.textValue();
    }

    int version(ObjectNode node, String type) {
        if (contract.versionPointer().isEmpty()) {
            return contract.schemas().get(type).firstKey();
        }
        String pointer = contract.versionPointer().get();
        JsonNode v = node.at(pointer);
        if (v.isMissingNode()) {
            throw new SchemaViolation("MissingVersion", type + " without " + Pointers.describe(pointer));
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new SchemaViolation(
                    "InvalidVersion",
                    Pointers.describe(pointer) + " is " + JsonTypes.describe(v)
                            + "; it must be an integer (the schema version)");
        }
        return v.intValue();
    }

    /** {@code node} of {@code type} upcast from {@code from} to {@code to}; refused when a step is not declared. */
    ObjectNode upcast(String type, int from, int to, ObjectNode node) {
        if (!upcasters.canUpcast(type, from, to)) {
            throw new SchemaViolation("NoUpcaster", type + " v" + from + " has no registered upcaster to v" + to);
        }
        JsonNode result = node;
        for (int v = from; v < to; v++) {
            result = step(type, v, result);
        }
        if (!result.isObject()) {
            throw new SchemaViolation("UpcastFailed", type + " v" + from + " upcast to v" + to + " is not an object");
        }
        return (ObjectNode) result;
    }

    private JsonNode step(String type, int from, JsonNode node) {
        Map<String, Object> tree = JSON.convertValue(node, new com.fasterxml.jackson.core.type.TypeReference<>() {});
        return JSON.valueToTree(upcasters.upcast(type, from, from + 1, tree).orElseThrow());
    }

    private Optional<String> rawKey(ObjectNode node, IncomingMessage message) {
        KeySource source = contract.key();
        if (source.attribute() != null) {
            return Optional.ofNullable(message.attributes().get(source.attribute()));
        }
        JsonNode key = node.at(source.compiled());
        return key.isTextual() ? Optional.of(key.textValue()) : Optional.empty();
    }

    private void checkKey(String key) {
        if (!KEY.matcher(key).matches()) {
            throw new SchemaViolation(
                    "InvalidKey",
                    contract.key().describe() + " is no key: a producer key is 1-256 visible ASCII characters ("
                            + (key.isEmpty() ? "it is empty" : describeFirstOutside(key)) + ")");
        }
    }

    private static String describeFirstOutside(String key) {
        if (key.length() > 256) {
            return "it is longer than 256 characters";
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < '!' || c > '~') {
                return "it holds U+" + String.format("%04X", (int) c) + " at index " + i;
            }
        }
        return "it breaks the rule";
    }

    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : ContractReader.class.getClassLoader();
    }
}
