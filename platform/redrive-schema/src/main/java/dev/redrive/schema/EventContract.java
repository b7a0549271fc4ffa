package dev.redrive.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How one consumer's messages are read without its code, as its route declares it: where the producer key is, where
 * the event type and the schema version are, the JSON Schema of every version of every type it reads, and the
 * declared upcasters (RFC 6902 JSON Patches from version N to N+1). The current version of a type is its highest
 * declared one. Read by a {@link ContractReader}, the same way by the consumer, the sweeper and the CLI.
 *
 * @param consumer       the consumer's name: part of every claim key ({@code <consumer>#<key>})
 * @param key            where the producer key is
 * @param typePointer    the JSON pointer of the event type; empty when the consumer reads one type
 * @param versionPointer the JSON pointer of the schema version; empty when every message is version 1
 * @param schemas        the schema documents, by event type, by version
 * @param patches        the declared upcasters, by event type, by the version each starts from
 */
public record EventContract(
        String consumer,
        KeySource key,
        Optional<String> typePointer,
        Optional<String> versionPointer,
        Map<String, SortedMap<Integer, JsonNode>> schemas,
        Map<String, SortedMap<Integer, JsonNode>> patches) {

    public EventContract {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(key, "key");
        typePointer.ifPresent(Pointers::check);
        versionPointer.ifPresent(Pointers::check);
        schemas = copy(schemas);
        patches = copy(patches);
        validate(consumer, typePointer, versionPointer, schemas, patches);
    }

    private static void validate(
            String consumer,
            Optional<String> typePointer,
            Optional<String> versionPointer,
            Map<String, SortedMap<Integer, JsonNode>> schemas,
            Map<String, SortedMap<Integer, JsonNode>> patches) {
        if (schemas.isEmpty()) {
            throw new IllegalArgumentException("the contract of " + consumer + " declares no schema");
        }
        if (typePointer.isEmpty() && schemas.size() > 1) {
            throw new IllegalArgumentException("the contract of " + consumer + " declares " + schemas.size()
                    + " event types but no eventType pointer to tell them apart");
        }
        schemas.forEach((type, versions) -> {
            if (versions.isEmpty()) {
                throw new IllegalArgumentException("the contract of " + consumer + " declares no version of " + type);
            }
            if (versionPointer.isEmpty() && versions.size() > 1) {
                throw new IllegalArgumentException("the contract of " + consumer + " declares " + versions.size()
                        + " versions of " + type + " but no version pointer to tell them apart");
            }
        });
        patches.forEach((type, steps) -> steps.keySet().forEach(from -> {
            if (!schemas.containsKey(type)
                    || !schemas.get(type).containsKey(from)
                    || !schemas.get(type).containsKey(from + 1)) {
                throw new IllegalArgumentException("the contract of " + consumer + " declares an upcaster of " + type
                        + " from v" + from + ", but not the schemas of v" + from + " and v" + (from + 1));
            }
        }));
    }

    /** The highest declared version of {@code type}. */
    public int currentVersion(String type) {
        SortedMap<Integer, JsonNode> versions = schemas.get(type);
        if (versions == null) {
            throw new IllegalArgumentException(consumer + " declares no event type " + type);
        }
        return versions.lastKey();
    }

    /** The schemas as a registry. */
    public SchemaRegistry registry() {
        return SchemaRegistry.of(schemas);
    }

    private static Map<String, SortedMap<Integer, JsonNode>> copy(Map<String, ? extends Map<Integer, JsonNode>> in) {
        Map<String, SortedMap<Integer, JsonNode>> out = new TreeMap<>();
        in.forEach((type, versions) -> {
            SortedMap<Integer, JsonNode> sorted = new TreeMap<>();
            versions.forEach((v, doc) -> sorted.put(v, doc.deepCopy()));
            out.put(type, java.util.Collections.unmodifiableSortedMap(sorted));
        });
        return java.util.Collections.unmodifiableMap(out);
    }
}
