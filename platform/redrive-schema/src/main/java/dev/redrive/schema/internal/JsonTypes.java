package dev.redrive.schema.internal;

import com.fasterxml.jackson.databind.JsonNode;

/** Internal: the JSON type of a value, for reasons that say what was found without saying the value. */
public final class JsonTypes {

    private JsonTypes() {}

    public static String describe(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return "missing";
        }
        if (v.isNull()) {
            return "null";
        }
        if (v.isTextual()) {
            return "a string";
        }
        if (v.isBoolean()) {
            return "a boolean";
        }
        if (v.isIntegralNumber()) {
            return "an integer out of range";
        }
        if (v.isNumber()) {
            return "a number with a fraction or exponent";
        }
        return v.isArray() ? "an array" : "an object";
    }
}
