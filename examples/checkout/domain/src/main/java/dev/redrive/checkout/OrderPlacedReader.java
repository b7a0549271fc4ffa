package dev.redrive.checkout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.schema.StrictJson;
import dev.redrive.schema.internal.JsonTypes;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads {@code OrderPlaced} messages in the current schema version, strictly ({@link StrictJson}: one object, no
 * duplicate key, bounded depth and size). Anything else is a {@link SchemaViolation} with a reason that names the
 * field and the rule, never what the payload held: not JSON, another event type, a missing, mistyped or unknown
 * version, an older version (which the sweeper can upcast on replay), an event id that is no key, an amount the
 * domain cannot hold exactly, a schema violation.
 *
 * <p>The event id's rule and the amount's bounds are the schema's own ({@code pattern}, {@code maxLength},
 * {@code minimum}, {@code maximum} of v{@value OrderPlaced#CURRENT_VERSION}), read from it once, so the schema says
 * them and this reader enforces them with a specific reason before the generic validation runs.
 */
public final class OrderPlacedReader {

    private static final String AMOUNT = "$.total.amountMinor";

    private final EventSchemas schemas;
    private final StrictJson strict;
    private final Pattern eventIdPattern;
    private final int eventIdMaxLength;
    private final BigInteger amountMinimum;
    private final BigInteger amountMaximum;

    /** {@code json} is not used for reading: every body is read by the one {@link StrictJson} reading. */
    public OrderPlacedReader(ObjectMapper json, EventSchemas schemas) {
        this.schemas = schemas;
        Set<String> known = new TreeSet<>(schemas.propertyNames(OrderPlaced.EVENT_TYPE, OrderPlaced.CURRENT_VERSION));
        known.addAll(schemas.propertyNames(OrderPlaced.EVENT_TYPE, 1));
        this.strict = new StrictJson(known);
        this.eventIdPattern =
                Pattern.compile(currentRule("/properties/eventId/pattern").asText());
        this.eventIdMaxLength = currentRule("/properties/eventId/maxLength").intValue();
        this.amountMinimum =
                currentRule("/properties/total/properties/amountMinor/minimum").bigIntegerValue();
        this.amountMaximum =
                currentRule("/properties/total/properties/amountMinor/maximum").bigIntegerValue();
    }

    private JsonNode currentRule(String pointer) {
        return schemas.rule(OrderPlaced.EVENT_TYPE, OrderPlaced.CURRENT_VERSION, pointer)
                .orElseThrow(() -> new IllegalStateException(
                        "the OrderPlaced v" + OrderPlaced.CURRENT_VERSION + " schema has no " + pointer));
    }

    /** How a reason for a schema validation failure starts (the problems follow). */
    static String schemaFailure(int version) {
        return "OrderPlaced v" + version + " fails its schema: ";
    }

    /** The strict reading this reader uses, for the other readers of the same bodies (the replay's schema gate). */
    public StrictJson strictJson() {
        return strict;
    }

    public ParsedMessage<OrderPlaced> read(IncomingMessage message) {
        ObjectNode node = strict.readObject(message.body());
        JsonNode typeNode = node.get("eventType");
        if (typeNode == null || typeNode.isNull()) {
            throw new SchemaViolation("UnexpectedEventType", "the message has no $.eventType");
        }
        if (!OrderPlaced.EVENT_TYPE.equals(typeNode.asText(null)) || !typeNode.isTextual()) {
            // The value is not echoed: it may be anything, personal data included.
            throw new SchemaViolation(
                    "UnexpectedEventType",
                    "$.eventType is not " + OrderPlaced.EVENT_TYPE + ", the type this consumer reads");
        }
        int version = version(node);
        if (version != OrderPlaced.CURRENT_VERSION) {
            boolean known = schemas.schema(OrderPlaced.EVENT_TYPE, version).isPresent();
            throw new SchemaViolation(
                    known ? "OutdatedVersion" : "UnknownVersion",
                    "OrderPlaced v" + version + (known ? " is an older version" : " is not a known version")
                            + "; this consumer reads v" + OrderPlaced.CURRENT_VERSION);
        }
        checkEventId(node.get("eventId"));
        checkAmount(node.path("total").get("amountMinor"));
        List<String> problems = schemas.problems(OrderPlaced.EVENT_TYPE, version, node);
        if (!problems.isEmpty()) {
            throw new SchemaViolation("SchemaValidation", schemaFailure(version) + String.join("; ", problems));
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
                node.get("total").get("amountMinor").bigIntegerValue().longValueExact(),
                node.get("total").get("currency").asText(),
                placedAt);
        return new ParsedMessage<>(event, event.eventId(), event.canonical());
    }

    /**
     * The event id of any version of the event (every version carries it), read as strictly as {@link #read} and held
     * to the same key rule, without validating the rest: how the sweeper finds the claims made for payloads this
     * version no longer reads. Empty when the body has no such key.
     */
    public Optional<String> eventId(String body) {
        try {
            JsonNode id = strict.readObject(body).get("eventId");
            checkEventId(id);
            return id == null || !id.isTextual() ? Optional.empty() : Optional.of(id.asText());
        } catch (SchemaViolation e) {
            return Optional.empty();
        }
    }

    private static int version(JsonNode node) {
        JsonNode v = node.get("version");
        if (v == null) {
            throw new SchemaViolation("MissingVersion", "OrderPlaced without $.version");
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new SchemaViolation(
                    "InvalidVersion",
                    "$.version is " + JsonTypes.describe(v) + "; it must be an integer (the schema version)");
        }
        return v.intValue();
    }

    /** A key must be safe as a DynamoDB key, an S3 metadata header and a log field: the schema's pattern. */
    private void checkEventId(JsonNode id) {
        if (id == null || !id.isTextual()) {
            return; // missing or mistyped: the schema validation says which
        }
        String value = id.asText();
        String problem = null;
        if (value.isBlank()) {
            problem = "is blank";
        } else if (value.length() > eventIdMaxLength) {
            problem = "is longer than " + eventIdMaxLength + " characters";
        } else if (!eventIdPattern.matcher(value).matches()) {
            int at = firstOutside(value);
            problem = "holds " + describeCharacter(value.codePointAt(at)) + " at index " + at;
        }
        if (problem != null) {
            throw new SchemaViolation(
                    "InvalidEventId",
                    "$.eventId " + problem + "; an event id is 1-" + eventIdMaxLength
                            + " visible ASCII characters (pattern " + eventIdPattern.pattern() + ")");
        }
    }

    private static int firstOutside(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '!' || c > '~') {
                return i;
            }
        }
        return 0;
    }

    private static String describeCharacter(int cp) {
        String code = String.format("U+%04X", cp);
        if (Character.isISOControl(cp)) {
            return "a control character (" + code + ")";
        }
        if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
            return "a space or line separator (" + code + ")";
        }
        return Character.getType(cp) == Character.FORMAT
                ? "a format character (" + code + ")"
                : "a character outside visible ASCII (" + code + ")";
    }

    /** Money is read exactly or not at all: never wrapped, saturated, rounded or sign-dropped. */
    private void checkAmount(JsonNode amount) {
        if (amount == null || !amount.isNumber()) {
            return; // missing or mistyped: the schema validation says which
        }
        if (!amount.isIntegralNumber()) {
            throw new SchemaViolation(
                    "AmountNotAnInteger",
                    AMOUNT + " must be an integer literal in minor units (no fraction, no exponent)");
        }
        BigInteger value = amount.bigIntegerValue();
        if (value.compareTo(amountMinimum) < 0 || value.compareTo(amountMaximum) > 0) {
            throw new SchemaViolation(
                    "AmountOutOfRange",
                    AMOUNT + " is out of range: the schema's minimum is " + amountMinimum + " and maximum "
                            + amountMaximum + " (minor units)");
        }
    }
}
