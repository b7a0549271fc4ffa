package dev.redrive.lambda;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import java.util.regex.Pattern;

/**
 * A minimal {@link MessageReader} for JSON messages whose producer key is at a JSON pointer: the body must be one JSON
 * object without duplicate keys, the key a string of 1 to 256 printable ASCII characters without spaces; the canonical
 * payload is the object with its keys sorted and no whitespace. A stop-gap: {@code redrive-schema}'s contract reader
 * (schemas, versions, upcasting, the strict JSON rules) replaces it, reading keys and fingerprints the same way the
 * sweeper and the CLI do. Failures are {@link SchemaViolation}s that never echo the body.
 */
public final class JsonMessages {

    private static final Pattern KEY = Pattern.compile("[!-~]{1,256}");
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    private JsonMessages() {}

    /** Reads the body as a JSON object whose producer key is the string at {@code pointer} ({@code /eventId}). */
    public static MessageReader<JsonNode> keyAt(String pointer) {
        if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException("a JSON pointer starts with /, as in /eventId: " + pointer);
        }
        return message -> {
            JsonNode body;
            try {
                body = JSON.readTree(message.body() == null ? "" : message.body());
            } catch (JsonProcessingException e) {
                throw new SchemaViolation(
                        "NotJson",
                        "the message body is not JSON (" + e.getClass().getSimpleName() + ")");
            }
            if (body == null || !body.isObject()) {
                throw new SchemaViolation("NotJsonObject", "the message body is not a JSON object");
            }
            JsonNode key = body.at(pointer);
            if (!key.isTextual()) {
                throw new SchemaViolation("MissingKey", "the message has no string key at " + pointer);
            }
            if (!KEY.matcher(key.textValue()).matches()) {
                throw new SchemaViolation(
                        "InvalidKey", "the key at " + pointer + " is not 1 to 256 printable ASCII characters");
            }
            return new ParsedMessage<>(body, key.textValue(), canonical(body));
        };
    }

    /** {@code node} with its object keys sorted, without whitespace. */
    static String canonical(JsonNode node) {
        try {
            return JSON.writeValueAsString(JSON.treeToValue(node, Object.class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed JSON tree did not render", e);
        }
    }
}
