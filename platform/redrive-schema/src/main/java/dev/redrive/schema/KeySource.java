package dev.redrive.schema;

import com.fasterxml.jackson.core.JsonPointer;
import java.util.Objects;

/**
 * Where a consumer's producer key is: a JSON pointer into the body ({@code {"pointer": "/eventId"}}) or a string
 * message attribute ({@code {"attribute": "eventId"}}). Exactly one of the two.
 *
 * @param pointer   the JSON pointer into the body, or null
 * @param attribute the message attribute's name, or null
 */
public record KeySource(String pointer, String attribute) {

    public KeySource {
        if ((pointer == null) == (attribute == null)) {
            throw new IllegalArgumentException("a key is either a JSON pointer or a message attribute, exactly one");
        }
        if (pointer != null) {
            Pointers.check(pointer);
        } else if (attribute.isBlank()) {
            throw new IllegalArgumentException("a key's message attribute name is blank");
        }
    }

    /** The key at {@code pointer} in the body. */
    public static KeySource pointer(String pointer) {
        return new KeySource(Objects.requireNonNull(pointer, "pointer"), null);
    }

    /** The key in the message attribute {@code name}. */
    public static KeySource attribute(String name) {
        return new KeySource(null, Objects.requireNonNull(name, "name"));
    }

    /** How a reason names the key's place: {@code $.eventId}, or {@code message attribute eventId}. */
    public String describe() {
        return pointer != null ? Pointers.describe(pointer) : "message attribute " + attribute;
    }

    /** The pointer, compiled. */
    JsonPointer compiled() {
        return JsonPointer.compile(pointer);
    }
}
