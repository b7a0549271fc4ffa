package dev.redrive.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.failure.SchemaViolation;
import java.io.IOException;
import java.util.Set;

/**
 * The one strict JSON reading of every consumer's contract, the sweeper's key lookup and the replay's schema gate: a
 * message body is exactly one JSON object, or it is refused with a {@link SchemaViolation} whose reason names the
 * rule and the place, never a value. Refused:
 * <ul>
 *   <li>a payload over {@value #MAX_BODY_BYTES} bytes ({@code TooLarge}; an event is usually a few hundred bytes,
 *       but a producer may pad it, and a claim check carries up to this much);</li>
 *   <li>anything after the object ({@code TrailingTokens}: two concatenated events must not become the first);</li>
 *   <li>a key given twice in one object ({@code DuplicateKey}: "the last value wins" is not a reading);</li>
 *   <li>nesting deeper than {@value #MAX_DEPTH} ({@code TooDeep}), a number longer than {@value #MAX_NUMBER_CHARS}
 *       characters ({@code ExceedsLimits});</li>
 *   <li>anything that is not JSON ({@code NotJson}, with the line and column) or not an object
 *       ({@code NotAJsonObject});</li>
 *   <li>a lone UTF-16 surrogate in any key or string, raw or escaped ({@code LoneSurrogate}: not Unicode text).</li>
 * </ul>
 * A key is named in a reason only when it is one of {@code knownKeys} (the schema's own property names): an unknown
 * key is payload and may hold anything.
 */
public final class StrictJson {

    /**
     * The largest payload read, in UTF-8 bytes: 8 MiB. A body that comes inline is bounded by SQS at 1 MiB; a larger
     * payload comes by claim check (its pointer in the body), and is read up to this bound.
     */
    public static final int MAX_BODY_BYTES = 8 * 1024 * 1024;
    /** The deepest nesting of objects and arrays read. */
    public static final int MAX_DEPTH = 64;
    /** The longest number literal read, in characters. */
    public static final int MAX_NUMBER_CHARS = 64;

    private final ObjectMapper mapper;
    private final Set<String> knownKeys;

    public StrictJson(Set<String> knownKeys) {
        JsonFactory factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_DEPTH)
                        .maxNumberLength(MAX_NUMBER_CHARS)
                        .maxStringLength(MAX_BODY_BYTES)
                        .build())
                .build();
        this.mapper = new ObjectMapper(factory);
        this.knownKeys = Set.copyOf(knownKeys);
    }

    /** Reads {@code body} as exactly one JSON object, strictly. */
    public ObjectNode readObject(String body) {
        if (body == null || body.isBlank()) {
            throw new SchemaViolation("EmptyBody", "the message body is empty");
        }
        if (utf8Length(body) > MAX_BODY_BYTES) {
            throw new SchemaViolation(
                    "TooLarge",
                    "the message payload is larger than " + MAX_BODY_BYTES
                            + " bytes, the most a message is read up to");
        }
        JsonNode node;
        try (JsonParser parser = mapper.createParser(body)) {
            node = mapper.readTree(parser);
            trailing(parser);
        } catch (StreamConstraintsException e) {
            throw e.getMessage() != null && e.getMessage().contains("nesting depth")
                    ? new SchemaViolation("TooDeep", "the message body nests deeper than " + MAX_DEPTH + " levels")
                    : new SchemaViolation(
                            "ExceedsLimits",
                            "the message body holds a number longer than " + MAX_NUMBER_CHARS
                                    + " characters or a string longer than " + MAX_BODY_BYTES + where(e));
        } catch (JsonParseException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("Duplicate field")) {
                throw new SchemaViolation("DuplicateKey", duplicate(e.getProcessor()) + where(e));
            }
            throw notJson(e);
        } catch (JsonProcessingException e) {
            throw notJson(e);
        } catch (IOException e) {
            throw new SchemaViolation("NotJson", "the message body could not be read as JSON");
        }
        if (node == null || !node.isObject()) {
            throw new SchemaViolation("NotAJsonObject", "the message body is JSON but not an object");
        }
        text(node, "$", true);
        return (ObjectNode) node;
    }

    /**
     * Refuses a lone UTF-16 surrogate in any key or string under {@code node} ({@code LoneSurrogate}), whether the body
     * held it raw or as a {@code \\uD800} escape (the parser turns both into the same char): such a string is not
     * Unicode text (RFC 8259 section 8.2; I-JSON, RFC 7493 section 2.1, refuses it), so an address holding one is no
     * address and a key holding one is no key. The reason names the field when the schema knows every key on its path
     * ({@code exact}), else the deepest known place above it; never the value, nor the surrogate.
     */
    private void text(JsonNode node, String path, boolean exact) {
        if (node.isTextual()) {
            int at = loneSurrogate(node.textValue());
            if (at >= 0) {
                throw new SchemaViolation(
                        "LoneSurrogate",
                        (exact ? path : "a string under " + path + ", in a field the schema does not know,")
                                + " holds a lone UTF-16 surrogate at index " + at + TEXT_RULE);
            }
        } else if (node.isObject()) {
            for (var it = node.fields(); it.hasNext(); ) {
                var field = it.next();
                String name = field.getKey();
                if (loneSurrogate(name) >= 0) {
                    throw new SchemaViolation(
                            "LoneSurrogate", "a key under " + path + " holds a lone UTF-16 surrogate" + TEXT_RULE);
                }
                boolean known = exact && knownKeys.contains(name);
                text(field.getValue(), known ? path + "." + name : path, known);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                text(node.get(i), exact ? path + "[" + i + "]" : path, exact);
            }
        }
    }

    private static final String TEXT_RULE =
            "; a string must be Unicode text, where every surrogate is half of a high-low pair (RFC 8259, 8.2)";

    /** The index of the first surrogate in {@code s} that is not half of a pair, or -1. */
    public static int loneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++; // a pair
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static void trailing(JsonParser parser) {
        boolean more;
        try {
            more = parser.nextToken() != null;
        } catch (IOException e) {
            more = true;
        }
        if (more) {
            throw new SchemaViolation(
                    "TrailingTokens",
                    "the message body holds more than one JSON value (something follows the object"
                            + where(parser.currentLocation()) + ")");
        }
    }

    /** "key $.a.b appears twice", naming only known keys. */
    private String duplicate(Object processor) {
        if (processor instanceof JsonParser p && p.getParsingContext() != null) {
            StringBuilder path = new StringBuilder("$");
            for (String segment :
                    p.getParsingContext().pathAsPointer().toString().split("/")) {
                if (segment.isEmpty()) {
                    continue;
                }
                if (segment.chars().allMatch(Character::isDigit)) {
                    path.append('[').append(segment).append(']');
                } else if (knownKeys.contains(segment)) {
                    path.append('.').append(segment);
                } else {
                    return "a key under " + path + " appears twice in one object";
                }
            }
            return "key " + path + " appears twice in one object";
        }
        return "a key appears twice in one object";
    }

    private static SchemaViolation notJson(JsonProcessingException e) {
        // Jackson's message quotes the input: keep it out of the reason.
        return new SchemaViolation("NotJson", "the message body is not JSON" + where(e));
    }

    private static String where(JsonProcessingException e) {
        return where(e.getLocation());
    }

    private static String where(com.fasterxml.jackson.core.JsonLocation at) {
        return at == null || at.getLineNr() < 0
                ? ""
                : " (at line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    private static long utf8Length(String s) {
        if (s.length() > MAX_BODY_BYTES) {
            return s.length();
        }
        long bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return bytes;
    }
}
