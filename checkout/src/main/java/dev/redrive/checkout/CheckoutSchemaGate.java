package dev.redrive.checkout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.replay.SchemaGate;
import dev.redrive.core.schema.UpcasterChain;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The schema check of a replay for the checkout consumers, which all read {@code OrderPlaced} at
 * {@value OrderPlaced#CURRENT_VERSION}: the current version passes if it validates; an older version is upcast
 * step by step through registered upcasters and must then validate against the current schema; anything else is
 * incompatible, with the reason named.
 */
public final class CheckoutSchemaGate implements SchemaGate {

    private final ObjectMapper json;
    private final EventSchemas schemas;
    private final UpcasterChain upcasters;

    public CheckoutSchemaGate(ObjectMapper json, EventSchemas schemas, UpcasterChain upcasters) {
        this.json = json;
        this.schemas = schemas;
        this.upcasters = upcasters;
    }

    /** The chain of every upcaster the checkout registers. */
    public static UpcasterChain upcasters() {
        return new UpcasterChain(List.of(new OrderPlacedV1ToV2()));
    }

    @Override
    public Verdict check(String consumer, String body) {
        JsonNode node;
        try {
            node = json.readTree(body);
        } catch (JsonProcessingException e) {
            return new Incompatible("the payload is not JSON");
        }
        if (node == null || !node.isObject()) {
            return new Incompatible("the payload is not a JSON object");
        }
        String type = node.path("eventType").asText("");
        if (!OrderPlaced.EVENT_TYPE.equals(type)) {
            return new Incompatible("eventType '" + type + "' is not read by " + consumer);
        }
        JsonNode versionNode = node.get("version");
        if (versionNode == null || !versionNode.isIntegralNumber()) {
            return new Incompatible("OrderPlaced without an integer version");
        }
        int version = versionNode.intValue();
        int current = OrderPlaced.CURRENT_VERSION;
        if (version == current) {
            List<String> problems = schemas.problems(type, current, node);
            return problems.isEmpty()
                    ? new Current()
                    : new Incompatible("fails the current schema v" + current + ": " + String.join("; ", problems));
        }
        if (version > current || !upcasters.canUpcast(type, version, current)) {
            return new Incompatible("OrderPlaced v" + version + " has no registered upcaster to v" + current);
        }
        Map<String, Object> tree = json.convertValue(node, new TypeReference<Map<String, Object>>() {});
        Optional<Map<String, Object>> upcast = upcasters.upcast(type, version, current, tree);
        JsonNode result = json.valueToTree(upcast.orElseThrow());
        List<String> problems = schemas.problems(type, current, result);
        if (!problems.isEmpty()) {
            return new Incompatible(
                    "upcast from v" + version + " does not satisfy v" + current + ": " + String.join("; ", problems));
        }
        try {
            return new Upcast(json.writeValueAsString(result), version, current);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an upcast event did not serialize", e);
        }
    }
}
