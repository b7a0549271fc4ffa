package dev.redrive.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.core.replay.SchemaGate;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The schema check of a replay, from the consumers' contracts: the current version passes if the consumer's reader
 * reads it; an older version is upcast step by step through the declared upcasters and must then be read as a current
 * one; anything else is incompatible, with the reason named. A replay passes exactly what a first delivery would, and a
 * consumer no route declares is incompatible, with the declared ones named.
 */
public final class ContractSchemaGate implements SchemaGate {

    private final Map<String, ContractReader> readers;

    /** The gate of these consumers' readers, by consumer name. */
    public ContractSchemaGate(Map<String, ContractReader> readers) {
        this.readers = Map.copyOf(readers);
    }

    /**
     * The redactor's answer for {@code body} by the consumer's own schemas (the rule {@code redrive show} and the
     * console redact by); {@code $} for a consumer no route declares.
     */
    @Override
    public Set<String> sensitivePaths(String consumer, String body) {
        ContractReader reader = readers.get(consumer);
        if (reader == null) {
            return Set.of(PayloadRedactor.WHOLE);
        }
        return Set.copyOf(new PayloadRedactor(reader.schemas()).reveal(body).sensitive());
    }

    @Override
    public Verdict check(String consumer, String body) {
        ContractReader reader = readers.get(consumer);
        if (reader == null) {
            return new Incompatible("no route declares the consumer '" + consumer + "' (declared: "
                    + String.join(", ", new TreeMap<>(readers).keySet()) + ")");
        }
        ObjectNode node;
        try {
            node = reader.strictJson().readObject(body);
        } catch (SchemaViolation e) {
            return new Incompatible("NotJson".equals(e.errorType()) ? "the payload is not JSON" : e.getMessage());
        }
        String type;
        int version;
        try {
            type = reader.type(node);
        } catch (SchemaViolation e) {
            return new Incompatible(e.getMessage().replace("this consumer", consumer));
        }
        try {
            version = reader.version(node, type);
        } catch (SchemaViolation e) {
            return new Incompatible(type + " without an integer version");
        }
        int current = reader.contract().currentVersion(type);
        if (version == current) {
            return currentlyRead(reader, type, current, node)
                    .<Verdict>map(reason -> new Incompatible("fails the current schema v" + current + ": " + reason))
                    .orElseGet(Current::new);
        }
        if (version > current || !reader.upcasters().canUpcast(type, version, current)) {
            return new Incompatible(type + " v" + version + " has no registered upcaster to v" + current);
        }
        ObjectNode upcast;
        try {
            upcast = reader.upcast(type, version, current, node);
        } catch (SchemaViolation e) {
            return new Incompatible(e.getMessage());
        }
        Optional<String> refused = currentlyRead(reader, type, current, upcast);
        if (refused.isPresent()) {
            return new Incompatible("upcast from v" + version + " does not satisfy v" + current + ": " + refused.get());
        }
        return new Upcast(upcast.toString(), version, current);
    }

    /** Why the consumer's reader refuses {@code node} as its current version, if it does. */
    private static Optional<String> currentlyRead(ContractReader reader, String type, int current, JsonNode node) {
        try {
            String body = node.toString();
            reader.current(
                    type,
                    current,
                    reader.strictJson().readObject(body),
                    new IncomingMessage("replay-check", "", body, Map.of(), 1, "", null),
                    reader.contract().key().pointer() != null);
            return Optional.empty();
        } catch (SchemaViolation e) {
            String prefix = ContractReader.schemaFailure(type, current);
            String reason = e.getMessage();
            return Optional.of(reason.startsWith(prefix) ? reason.substring(prefix.length()) : reason);
        }
    }
}
