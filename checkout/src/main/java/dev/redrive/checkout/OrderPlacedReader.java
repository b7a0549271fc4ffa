package dev.redrive.checkout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code OrderPlaced} messages in the current schema version. Anything else is a {@link SchemaViolation} with a
 * reason that says what is wrong and where, never what the payload held: not JSON, another event type, a missing or
 * unknown version, an older version (which the sweeper can upcast on replay), a schema violation.
 */
public final class OrderPlacedReader {

    private final ObjectMapper json;
    private final EventSchemas schemas;

    public OrderPlacedReader(ObjectMapper json, EventSchemas schemas) {
        this.json = json;
        this.schemas = schemas;
    }

    public ParsedMessage<OrderPlaced> read(IncomingMessage message) {
        JsonNode node = parse(message.body());
        String type = node.path("eventType").asText("");
        if (!OrderPlaced.EVENT_TYPE.equals(type)) {
            throw new SchemaViolation(
                    "UnexpectedEventType",
                    type.isEmpty()
                            ? "the message has no eventType"
                            : "eventType '" + abbreviate(type) + "' is not " + OrderPlaced.EVENT_TYPE);
        }
        JsonNode versionNode = node.get("version");
        if (versionNode == null || !versionNode.canConvertToInt() || !versionNode.isIntegralNumber()) {
            throw new SchemaViolation("MissingVersion", "OrderPlaced without an integer 'version'");
        }
        int version = versionNode.intValue();
        if (version != OrderPlaced.CURRENT_VERSION) {
            boolean known = schemas.schema(OrderPlaced.EVENT_TYPE, version).isPresent();
            throw new SchemaViolation(
                    known ? "OutdatedVersion" : "UnknownVersion",
                    "OrderPlaced v" + version + (known ? " is an older version" : " is not a known version")
                            + "; this consumer reads v" + OrderPlaced.CURRENT_VERSION);
        }
        List<String> problems = schemas.problems(OrderPlaced.EVENT_TYPE, version, node);
        if (!problems.isEmpty()) {
            throw new SchemaViolation(
                    "SchemaValidation",
                    "OrderPlaced v" + version + " fails its schema: " + String.join("; ", problems));
        }
        Instant placedAt;
        try {
            placedAt = Instant.parse(node.get("placedAt").asText());
        } catch (DateTimeParseException e) {
            throw new SchemaViolation("SchemaValidation", "$.placedAt is not an ISO-8601 instant");
        }
        OrderPlaced event = new OrderPlaced(
                node.get("eventId").asText(),
                node.get("orderId").asText(),
                node.get("customer").get("email").asText(),
                node.get("total").get("amountMinor").longValue(),
                node.get("total").get("currency").asText(),
                placedAt);
        return new ParsedMessage<>(event, event.eventId(), event.canonical());
    }

    /**
     * The event id of any version of the event (every version carries it), without validating the rest: how the
     * sweeper finds the claims made for payloads this version no longer reads.
     */
    public Optional<String> eventId(String body) {
        try {
            JsonNode node = json.readTree(body == null ? "" : body);
            JsonNode id = node == null ? null : node.get("eventId");
            return id != null && id.isTextual() && !id.asText().isBlank() ? Optional.of(id.asText()) : Optional.empty();
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    private JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            throw new SchemaViolation("EmptyBody", "the message body is empty");
        }
        try {
            JsonNode node = json.readTree(body);
            if (node == null || !node.isObject()) {
                throw new SchemaViolation("NotAJsonObject", "the message body is JSON but not an object");
            }
            return node;
        } catch (JsonProcessingException e) {
            // Jackson's message quotes the input: keep it out of the reason.
            String where = e.getLocation() == null
                    ? ""
                    : " (error at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + ")";
            throw new SchemaViolation("NotJson", "the message body is not JSON" + where);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
