package dev.redrive.core.consumer;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A message attribute as the queue delivered it, whatever its type: SQS's {@code String}, {@code Number} and
 * {@code Binary} (with an optional custom suffix such as {@code Number.float}). A dead letter carries these unchanged,
 * so its copy in the dead-letter queue is the original; the quarantine keeps them, and a replay sends them back, each
 * with its type.
 *
 * @param dataType    the attribute's data type as sent
 * @param stringValue the value of a String or Number attribute, else null
 * @param binaryValue the bytes of a Binary attribute, else null
 */
public record MessageAttribute(String dataType, String stringValue, byte[] binaryValue) {

    public MessageAttribute {
        Objects.requireNonNull(dataType, "dataType");
        binaryValue = binaryValue == null ? null : binaryValue.clone();
    }

    public static MessageAttribute ofString(String value) {
        return new MessageAttribute("String", value, null);
    }

    public static MessageAttribute ofNumber(String value) {
        return new MessageAttribute("Number", value, null);
    }

    /** Every value of {@code attributes} as a String attribute (the form of attributes that carry no type). */
    public static Map<String, MessageAttribute> ofStrings(Map<String, String> attributes) {
        Map<String, MessageAttribute> typed = new LinkedHashMap<>();
        attributes.forEach((k, v) -> typed.put(k, ofString(v)));
        return typed;
    }

    /**
     * The text of every String and Number attribute of {@code attributes} (Binary ones have none): what consumers and
     * claim checks read.
     */
    public static Map<String, String> strings(Map<String, MessageAttribute> attributes) {
        Map<String, String> strings = new LinkedHashMap<>();
        attributes.forEach((k, v) -> {
            if (!v.binary() && v.stringValue() != null) {
                strings.put(k, v.stringValue());
            }
        });
        return strings;
    }

    public boolean binary() {
        return dataType.startsWith("Binary");
    }

    @Override
    public byte[] binaryValue() {
        return binaryValue == null ? null : binaryValue.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MessageAttribute a
                && dataType.equals(a.dataType)
                && Objects.equals(stringValue, a.stringValue)
                && Arrays.equals(binaryValue, a.binaryValue);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dataType, stringValue, Arrays.hashCode(binaryValue));
    }

    @Override
    public String toString() {
        return dataType + (binaryValue == null ? "" : "(" + binaryValue.length + " bytes)");
    }
}
