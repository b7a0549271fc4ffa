package dev.redrive.checkout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.core.replay.SchemaGate;
import dev.redrive.core.schema.UpcasterChain;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The schema check of a replay for the checkout consumers, which all read {@code OrderPlaced} at
 * {@value OrderPlaced#CURRENT_VERSION}: the current version passes if it validates; an older version is upcast
 * step by step through registered upcasters and must then validate against the current schema; anything else is
 * incompatible, with the reason named. Bodies are read by the consumers' own {@link OrderPlacedReader} (strictly: one
 * object, no duplicate key, the event id and amount rules), so a replay passes exactly what a first delivery would.
 */
public final class CheckoutSchemaGate implements SchemaGate {

    private final ObjectMapper json;
    private final EventSchemas schemas;
    private final UpcasterChain upcasters;
    private final OrderPlacedReader reader;

    public CheckoutSchemaGate(ObjectMapper json, EventSchemas schemas, UpcasterChain upcasters) {
        this.json = json;
        this.schemas = schemas;
        this.upcasters = upcasters;
        this.reader = new OrderPlacedReader(json, schemas);
    }

    /** The chain of every upcaster the checkout registers. */
    public static UpcasterChain upcasters() {
        return new UpcasterChain(List.of(new OrderPlacedV1ToV2()));
    }

    @Override
    public Verdict check(String consumer, String body) {
        ObjectNode node;
        try {
            node = reader.strictJson().readObject(body);
        } catch (SchemaViolation e) {
            return new Incompatible("NotJson".equals(e.errorType()) ? "the payload is not JSON" : e.getMessage());
        }
        JsonNode typeNode = node.get("eventType");
        if (typeNode == null || !typeNode.isTextual() || !OrderPlaced.EVENT_TYPE.equals(typeNode.asText())) {
            // The value is not echoed: it may be anything, personal data included.
            return new Incompatible(
                    "$.eventType is not " + OrderPlaced.EVENT_TYPE + ", the type " + consumer + " reads");
        }
        JsonNode versionNode = node.get("version");
        if (versionNode == null || !versionNode.isIntegralNumber() || !versionNode.canConvertToInt()) {
            return new Incompatible("OrderPlaced without an integer version");
        }
        int version = versionNode.intValue();
        int current = OrderPlaced.CURRENT_VERSION;
        if (version == current) {
            return strictlyRead(body)
                    .<Verdict>map(reason -> new Incompatible("fails the current schema v" + current + ": " + reason))
                    .orElseGet(Current::new);
        }
        if (version > current || !upcasters.canUpcast(OrderPlaced.EVENT_TYPE, version, current)) {
            return new Incompatible("OrderPlaced v" + version + " has no registered upcaster to v" + current);
        }
        Map<String, Object> tree = json.convertValue(node, new TypeReference<Map<String, Object>>() {});
        Optional<Map<String, Object>> upcast = upcasters.upcast(OrderPlaced.EVENT_TYPE, version, current, tree);
        JsonNode result = json.valueToTree(upcast.orElseThrow());
        String upcastBody;
        try {
            upcastBody = json.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an upcast event did not serialize", e);
        }
        List<String> problems = schemas.problems(OrderPlaced.EVENT_TYPE, current, result);
        if (!problems.isEmpty()) {
            return new Incompatible(
                    "upcast from v" + version + " does not satisfy v" + current + ": " + String.join("; ", problems));
        }
        Optional<String> refused = strictlyRead(upcastBody);
        if (refused.isPresent()) {
            return new Incompatible("upcast from v" + version + " does not satisfy v" + current + ": " + refused.get());
        }
        return new Upcast(upcastBody, version, current);
    }

    /** Why the consumers' own reader refuses {@code body}, if it does: a replay is read as a first delivery is. */
    private Optional<String> strictlyRead(String body) {
        try {
            reader.read(new IncomingMessage("replay-check", "", body, Map.of(), 1, "", null));
            return Optional.empty();
        } catch (SchemaViolation e) {
            String prefix = OrderPlacedReader.schemaFailure(OrderPlaced.CURRENT_VERSION);
            String reason = e.getMessage();
            return Optional.of(reason.startsWith(prefix) ? reason.substring(prefix.length()) : reason);
        }
    }
}
