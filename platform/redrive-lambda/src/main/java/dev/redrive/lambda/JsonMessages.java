package dev.redrive.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.schema.CanonicalJson;
import dev.redrive.schema.ContractReader;
import dev.redrive.schema.StrictJson;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The smallest {@link MessageReader}: JSON messages whose producer key is at a JSON pointer, with no schema. It reads
 * exactly as the sweeper and the CLI read (the same code: {@code redrive-schema}'s {@link StrictJson}, the key rule of
 * {@link ContractReader}, {@link CanonicalJson} for the fingerprinted payload), so a dead letter of this consumer is
 * read, keyed and fingerprinted the same way when it is replayed. With schemas, versions and upcasters, declare a
 * contract and pass its {@link ContractReader}'s {@code parse} instead ({@code contract::parse} is a {@code
 * MessageReader}). Failures are {@link SchemaViolation}s that never echo the body.
 */
public final class JsonMessages {

    private static final Pattern KEY = Pattern.compile(ContractReader.KEY_RULE);
    private static final StrictJson STRICT = new StrictJson(Set.of());

    private JsonMessages() {}

    /** Reads the body as a JSON object whose producer key is the string at {@code pointer} ({@code /eventId}). */
    public static MessageReader<JsonNode> keyAt(String pointer) {
        if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException("a JSON pointer starts with /, as in /eventId: " + pointer);
        }
        return message -> {
            ObjectNode body = STRICT.readObject(message.body() == null ? "" : message.body());
            JsonNode key = body.at(pointer);
            if (!key.isTextual()) {
                throw new SchemaViolation("MissingKey", "the message has no string key at " + pointer);
            }
            if (!KEY.matcher(key.textValue()).matches()) {
                throw new SchemaViolation(
                        "InvalidKey", "the key at " + pointer + " is not 1 to 256 printable ASCII characters");
            }
            return new ParsedMessage<>(body, key.textValue(), CanonicalJson.of(body));
        };
    }
}
