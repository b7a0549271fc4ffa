package dev.redrive.schema;

import com.fasterxml.jackson.core.JsonPointer;

/** JSON pointers of a contract: checked when declared, named in reasons as {@code $.a.b}. */
final class Pointers {

    private Pointers() {}

    /** Throws when {@code pointer} is not a JSON pointer to a field (RFC 6901, not the whole document). */
    static String check(String pointer) {
        if (pointer == null || pointer.isEmpty() || !pointer.startsWith("/")) {
            throw new IllegalArgumentException("'" + pointer + "' is not a JSON pointer to a field (it starts with /)");
        }
        try {
            JsonPointer.compile(pointer);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + pointer + "' is not a JSON pointer: " + e.getMessage(), e);
        }
        return pointer;
    }

    /** {@code /total/amountMinor} as {@code $.total.amountMinor}. */
    static String describe(String pointer) {
        StringBuilder out = new StringBuilder("$");
        for (JsonPointer p = JsonPointer.compile(pointer); !p.matches(); p = p.tail()) {
            if (p.mayMatchElement() && p.getMatchingProperty().chars().allMatch(Character::isDigit)) {
                out.append('[').append(p.getMatchingIndex()).append(']');
            } else {
                out.append('.').append(p.getMatchingProperty());
            }
        }
        return out.toString();
    }
}
