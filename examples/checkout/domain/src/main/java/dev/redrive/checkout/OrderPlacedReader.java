package dev.redrive.checkout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.schema.ContractReader;
import dev.redrive.schema.StrictJson;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads {@code OrderPlaced} messages in the current schema version through the generic {@link ContractReader} of the
 * checkout's declared contract ({@link CheckoutContracts}): the same strict reading, key, version and schema checks as
 * the sweeper's and the CLI's, and the same canonical payload (the canonical JSON of the current-version document),
 * so their claim keys and fingerprints agree. An older version is refused ({@code OutdatedVersion}: the sweeper
 * upcasts it on replay, with its audit trail). What stays here is OrderPlaced's own: the event id's rule and the
 * amount's bounds, with their specific reasons, and the mapping of the document to {@link OrderPlaced}.
 *
 * <p>The event id's rule and the amount's bounds are the schema's own ({@code pattern}, {@code maxLength},
 * {@code minimum}, {@code maximum} of v{@value OrderPlaced#CURRENT_VERSION}), read from it once, so the schema says
 * them and this reader enforces them with a specific reason before the generic validation runs.
 */
public final class OrderPlacedReader {

    private static final String AMOUNT = "$.total.amountMinor";

    private final ContractReader contract;
    private final Pattern eventIdPattern;
    private final int eventIdMaxLength;
    private final BigInteger amountMinimum;
    private final BigInteger amountMaximum;

    /** {@code json} and {@code schemas} are not used for reading: the declared contract is the one reading. */
    public OrderPlacedReader(ObjectMapper json, EventSchemas schemas) {
        this(CheckoutContracts.orderPlaced("order-placed-reader"));
    }

    private OrderPlacedReader(dev.redrive.schema.EventContract declared) {
        JsonNode current = declared.schemas().get(OrderPlaced.EVENT_TYPE).get(OrderPlaced.CURRENT_VERSION);
        this.eventIdPattern =
                Pattern.compile(rule(current, "/properties/eventId/pattern").asText());
        this.eventIdMaxLength = rule(current, "/properties/eventId/maxLength").intValue();
        this.amountMinimum = rule(current, "/properties/total/properties/amountMinor/minimum")
                .bigIntegerValue();
        this.amountMaximum = rule(current, "/properties/total/properties/amountMinor/maximum")
                .bigIntegerValue();
        this.contract = new ContractReader(declared, List.of(), List.of(this::orderRules)).readingCurrentOnly();
    }

    private static JsonNode rule(JsonNode schema, String pointer) {
        JsonNode rule = schema.at(pointer);
        if (rule.isMissingNode()) {
            throw new IllegalStateException(
                    "the OrderPlaced v" + OrderPlaced.CURRENT_VERSION + " schema has no " + pointer);
        }
        return rule;
    }

    /** How a reason for a schema validation failure starts (the problems follow). */
    static String schemaFailure(int version) {
        return ContractReader.schemaFailure(OrderPlaced.EVENT_TYPE, version);
    }

    /** The strict reading this reader uses, for the other readers of the same bodies (the replay's schema gate). */
    public StrictJson strictJson() {
        return contract.strictJson();
    }

    /** The generic reader of the declared contract, with OrderPlaced's own rules. */
    ContractReader contractReader() {
        return contract;
    }

    public ParsedMessage<OrderPlaced> read(IncomingMessage message) {
        ParsedMessage<JsonNode> read = contract.parse(message);
        JsonNode node = read.event();
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
        return new ParsedMessage<>(event, read.producerKey(), read.canonicalPayload());
    }

    /**
     * The event id of any version of the event (every version carries it), read as strictly as {@link #read} and held
     * to the same key rule, without validating the rest: how the sweeper finds the claims made for payloads this
     * version no longer reads. Empty when the body has no such key.
     */
    public Optional<String> eventId(String body) {
        return contract.producerKey(new IncomingMessage("key-read", "", body, java.util.Map.of(), 1, "", null));
    }

    private void orderRules(String type, int version, ObjectNode node) {
        checkEventId(node.get("eventId"));
        checkAmount(node.path("total").get("amountMinor"));
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
